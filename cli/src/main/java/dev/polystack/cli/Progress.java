package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Waits for a deployment to end, printing a line per resource whenever its status changes (with the
 * error of one that failed), and says how it ended by exit code.
 */
final class Progress {

    private static final Set<String> ENDED = Set.of("succeeded", "failed", "cancelled");
    private static final Duration POLL = Duration.ofSeconds(1);

    private Progress() {}

    /** The deployment as it ended; throws with exit code 2 when the timeout passes first. */
    static JsonNode await(Client client, Target target, String id, Duration timeout, PrintWriter out) {
        String path = target.path() + "/deployments/" + id;
        long deadline = System.nanoTime() + timeout.toNanos();
        Map<String, String> seen = new HashMap<>();
        String waiting = null;
        while (true) {
            JsonNode deployment = client.get(path);
            for (JsonNode node : deployment.path("nodes")) {
                String key = node.path("type").asText() + "/"
                        + node.path("class").asText() + "/" + node.path("id").asText();
                String status = node.path("status").asText();
                if (!status.equals(seen.put(key, status))) {
                    out.printf(
                            "  %-48s %s%s%n",
                            key,
                            status,
                            node.hasNonNull("error") && status.equals("failed")
                                    ? ": " + firstLine(node.path("error").asText())
                                    : "");
                }
            }
            String now = deployment.path("status").asText().equals("awaiting_approval")
                    ? awaitingApproval(deployment)
                    : deployment
                            .path("waiting")
                            .asText(deployment.path("stalled_reason").asText(null));
            if (now != null && !now.equals(waiting)) {
                out.println("  (" + now + ")");
            }
            waiting = now;
            out.flush();
            if (ENDED.contains(deployment.path("status").asText())) {
                return deployment;
            }
            if (System.nanoTime() > deadline) {
                throw new CliException(
                        ExitCodes.CANCELLED_OR_TIMED_OUT,
                        "deployment " + id + " had not ended after " + timeout
                                + " (it goes on; follow it with `polystack logs " + id + " -f --env " + target + "`)");
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CliException(ExitCodes.CANCELLED_OR_TIMED_OUT, "interrupted; deployment " + id + " goes on");
            }
        }
    }

    /** What a deployment that waits for approval waits for: how many approvals of how many, and until when. */
    static String awaitingApproval(JsonNode deployment) {
        JsonNode approval = deployment.path("approval");
        long given = 0;
        for (JsonNode decision : approval.path("decisions")) {
            if (decision.path("decision").asText().equals("approve")) {
                given++;
            }
        }
        return "waiting for approval: " + given + " of "
                + approval.path("required").asInt(1) + " given, until "
                + approval.path("expires_at").asText("?")
                + "; approve or reject it in the console or with POST …/deployments/"
                + deployment.path("id").asText() + "/approvals";
    }

    /** The exit code of an ended deployment, after a line that says how it ended. */
    static int report(JsonNode deployment, PrintWriter out, PrintWriter err) {
        String status = deployment.path("status").asText();
        String id = deployment.path("id").asText();
        switch (status) {
            case "succeeded" -> {
                out.printf("Deployment %s succeeded%n", id);
                return ExitCodes.OK;
            }
            case "cancelled" -> {
                err.printf("Deployment %s was cancelled%n", id);
                return ExitCodes.CANCELLED_OR_TIMED_OUT;
            }
            default -> {
                err.printf(
                        "Deployment %s failed%s%n",
                        id,
                        deployment.hasNonNull("error")
                                ? ": " + deployment.path("error").asText()
                                : "");
                for (JsonNode node : deployment.path("nodes")) {
                    if (node.path("status").asText().equals("failed")) {
                        err.printf(
                                "  %s/%s/%s: %s%n",
                                node.path("type").asText(),
                                node.path("class").asText(),
                                node.path("id").asText(),
                                node.path("error").asText("failed"));
                    }
                }
                return ExitCodes.FAILED;
            }
        }
    }

    static Duration duration(String text) {
        try {
            String t = text.strip().toLowerCase(Locale.ROOT);
            if (t.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(t.substring(0, t.length() - 2)));
            }
            long amount = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> throw new NumberFormatException();
            };
        } catch (RuntimeException e) {
            throw CliException.badInput("--timeout `" + text + "` is not a duration such as 90s, 30m or 2h");
        }
    }

    private static String firstLine(String text) {
        int newline = text.indexOf('\n');
        return newline < 0 ? text : text.substring(0, newline) + " …";
    }
}

package dev.polystack.platform.deployment.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;

/** What an approval is bound to: a gated deployment's plan, and the state serials it was planned against. */
public final class PlanFingerprint {

    private PlanFingerprint() {}

    /** Whether a planned node's plan summary shows a change, or could not be planned yet (known after apply). */
    public static boolean changes(JsonNode summary) {
        if (summary == null || summary.isNull()) {
            return true;
        }
        return summary.has("known_after_apply")
                || summary.path("add").asInt(0)
                                + summary.path("change").asInt(0)
                                + summary.path("destroy").asInt(0)
                        > 0;
    }

    /**
     * {@code sha256:…} over the deployment and, for each planned node in identity order, its operation, its state
     * serial when planned, its inputs' digest and its plan summary.
     */
    public static String of(UUID deploymentId, List<DeploymentNode> planned) {
        StringBuilder text = new StringBuilder(deploymentId.toString());
        planned.stream()
                .sorted(Comparator.comparing(n -> n.identity().toString()))
                .forEach(node -> text.append('\n')
                        .append(node.identity())
                        .append(' ')
                        .append(node.operation().wireName())
                        .append(' ')
                        .append(node.plannedSerial())
                        .append(' ')
                        .append(node.inputsDigest())
                        .append(' ')
                        .append(node.planSummary()));
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(text.toString().getBytes(StandardCharsets.UTF_8));
            return "sha256:" + HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.polystack.cli;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * An answer of the API that is not a success, with its RFC 9457 problem when it sent one. Client errors
 * (4xx) are bad input: running the same command again cannot help.
 */
public class ApiException extends CliException {

    private final int status;
    private final JsonNode problem;

    public ApiException(int status, JsonNode problem, String fallback) {
        super(
                status >= 400 && status < 500 && status != 408 && status != 429
                        ? ExitCodes.BAD_INPUT
                        : ExitCodes.FAILED,
                render(status, problem, fallback));
        this.status = status;
        this.problem = problem;
    }

    public int status() {
        return status;
    }

    public JsonNode problem() {
        return problem;
    }

    /**
     * The problem as a person reads it: its title and detail, then every field error with where it is
     * (the manifest path and line when the server knows them), then the request id to quote.
     */
    static String render(int status, JsonNode problem, String fallback) {
        if (problem == null || !problem.isObject()) {
            return "the server answered " + status
                    + (fallback == null || fallback.isBlank() ? "" : ": " + abbreviate(fallback.strip()));
        }
        StringBuilder out = new StringBuilder();
        out.append(problem.path("title").asText("The server answered " + status));
        String detail = problem.path("detail").asText("");
        if (!detail.isBlank()) {
            out.append(": ").append(detail);
        }
        for (JsonNode error : problem.path("errors")) {
            out.append("\n  - ");
            String where = error.path("path").asText(error.path("pointer").asText(""));
            if (!where.isBlank()) {
                out.append(where);
                if (error.hasNonNull("line")) {
                    out.append(" (line ").append(error.path("line").asInt()).append(')');
                }
                out.append(": ");
            } else if (error.hasNonNull("line")) {
                out.append("line ").append(error.path("line").asInt()).append(": ");
            }
            out.append(error.path("detail").asText("is not valid"));
        }
        JsonNode quota = problem.path("quota");
        if (quota.isObject()) {
            out.append("\n  quota ")
                    .append(quota.path("name").asText())
                    .append(": limit ")
                    .append(quota.path("limit").asLong())
                    .append(", used ")
                    .append(quota.path("used").asLong());
        }
        if (problem.hasNonNull("request_id")) {
            out.append("\n  (status ")
                    .append(status)
                    .append(", request id ")
                    .append(problem.path("request_id").asText())
                    .append(')');
        }
        return out.toString();
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "…";
    }
}

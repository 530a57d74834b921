package dev.polystack.platform.common.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.net.URI;
import java.util.List;

/** RFC 9457 problem details, the one shape of every error the API returns. */
@Schema(name = "Problem", description = "RFC 9457 problem details")
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record ProblemDetail(
        URI type,
        String title,
        int status,
        String detail,
        String instance,

        @Schema(description = "Correlates the answer with the server's log")
        String requestId,

        @Schema(description = "Each field or JSON pointer that was wrong")
        List<FieldError> errors,

        @Schema(description = "For quota-exceeded: which quota, its limit and its usage")
        QuotaExceeded quota) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public ProblemDetail(
            URI type,
            String title,
            int status,
            String detail,
            String instance,
            String requestId,
            List<FieldError> errors) {
        this(type, title, status, detail, instance, requestId, errors, null);
    }

    /** A quota that a request would exceed. */
    @Schema(name = "ProblemQuota")
    public record QuotaExceeded(String name, long limit, long used) {}

    /**
     * One wrong part of a request: a JSON pointer (or parameter name) and what was wrong with it; for
     * manifests also the dotted path into the manifest and the line it is on; for module code the line and
     * column in it.
     */
    @Schema(name = "ProblemFieldError")
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record FieldError(String pointer, String detail, String path, Integer line, Integer column) {
        public FieldError(String pointer, String detail) {
            this(pointer, detail, null, null, null);
        }

        public FieldError(String pointer, String detail, String path, Integer line) {
            this(pointer, detail, path, line, null);
        }
    }
}

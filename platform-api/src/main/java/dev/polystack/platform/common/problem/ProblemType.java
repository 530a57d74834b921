package dev.polystack.platform.common.problem;

import java.net.URI;

/** Every kind of problem the API answers with, its HTTP status and its stable type URI. */
public enum ProblemType {
    VALIDATION(400, "validation", "The request is not valid"),
    MALFORMED_BODY(400, "malformed-body", "The request body cannot be read"),
    UNAUTHENTICATED(401, "unauthenticated", "Authentication is required"),
    FORBIDDEN(403, "forbidden", "Your role does not allow this"),
    QUOTA_EXCEEDED(403, "quota-exceeded", "A quota of the organization is used up"),
    NOT_FOUND(404, "not-found", "Not found"),
    METHOD_NOT_ALLOWED(405, "method-not-allowed", "Method not allowed"),
    NOT_ACCEPTABLE(406, "not-acceptable", "Not acceptable"),
    CONFLICT(409, "conflict", "Conflict"),
    IN_USE(409, "in-use", "Still in use"),
    STALE_VERSION(409, "stale-version", "The object was changed by someone else"),
    GONE(410, "gone", "No longer kept"),
    PAYLOAD_TOO_LARGE(413, "payload-too-large", "The request body is too large"),
    UNSUPPORTED_MEDIA_TYPE(415, "unsupported-media-type", "Unsupported media type"),
    EXPECTATION_FAILED(417, "expectation-failed", "The Expect header cannot be met"),
    UNPROCESSABLE(422, "unprocessable", "The request refers to something that does not fit"),
    TOO_MANY_REQUESTS(429, "too-many-requests", "Too many requests"),
    INTERNAL(500, "internal", "Internal error"),
    UNAVAILABLE(503, "unavailable", "The service is temporarily unavailable");

    private static final String BASE = "https://polystack.dev/problems/";

    private final int status;
    private final String slug;
    private final String title;

    ProblemType(int status, String slug, String title) {
        this.status = status;
        this.slug = slug;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    public URI uri() {
        return URI.create(BASE + slug);
    }

    /** The generic type for an HTTP status that has no more specific one. */
    public static ProblemType forStatus(int status) {
        for (ProblemType type : values()) {
            if (type.status == status) {
                return type;
            }
        }
        return status >= 500 ? INTERNAL : VALIDATION;
    }
}

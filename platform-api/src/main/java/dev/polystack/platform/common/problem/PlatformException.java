package dev.polystack.platform.common.problem;

import java.util.List;

/** A failure the caller can act on; mapped to an RFC 9457 problem of the given type. */
public class PlatformException extends RuntimeException {

    private final ProblemType type;
    private final List<ProblemDetail.FieldError> errors;
    private final ProblemDetail.QuotaExceeded quota;

    public PlatformException(ProblemType type, String detail) {
        this(type, detail, List.of());
    }

    public PlatformException(ProblemType type, String detail, List<ProblemDetail.FieldError> errors) {
        this(type, detail, errors, null);
    }

    private PlatformException(
            ProblemType type, String detail, List<ProblemDetail.FieldError> errors, ProblemDetail.QuotaExceeded quota) {
        super(detail, null, false, false);
        this.type = type;
        this.errors = List.copyOf(errors);
        this.quota = quota;
    }

    /** The quota that was exceeded; null for other problems. */
    public ProblemDetail.QuotaExceeded quota() {
        return quota;
    }

    public static PlatformException quotaExceeded(String quota, long limit, long used, String detail) {
        return new PlatformException(
                ProblemType.QUOTA_EXCEEDED, detail, List.of(), new ProblemDetail.QuotaExceeded(quota, limit, used));
    }

    public ProblemType type() {
        return type;
    }

    public List<ProblemDetail.FieldError> errors() {
        return errors;
    }

    /**
     * The same problem about one part of a larger request: each field's pointer under {@code prefix}, the
     * detail after {@code context}.
     */
    public PlatformException within(String prefix, String context) {
        List<ProblemDetail.FieldError> moved = errors.stream()
                .map(f -> new ProblemDetail.FieldError(
                        prefix
                                + (f.pointer().isEmpty() || f.pointer().equals("/")
                                        ? ""
                                        : f.pointer().startsWith("/") ? f.pointer() : "/" + f.pointer()),
                        f.detail(),
                        f.path(),
                        f.line(),
                        f.column()))
                .toList();
        return new PlatformException(
                type, context.isEmpty() ? getMessage() : context + ": " + getMessage(), moved, quota);
    }

    public static PlatformException notFound(String what) {
        return new PlatformException(ProblemType.NOT_FOUND, what + " does not exist");
    }

    public static PlatformException invalid(String pointer, String detail) {
        return new PlatformException(
                ProblemType.VALIDATION,
                pointer + ": " + detail,
                List.of(new ProblemDetail.FieldError(pointer, detail)));
    }

    public static PlatformException unprocessable(String pointer, String detail) {
        return new PlatformException(
                ProblemType.UNPROCESSABLE,
                pointer + ": " + detail,
                List.of(new ProblemDetail.FieldError(pointer, detail)));
    }

    public static PlatformException conflict(String detail) {
        return new PlatformException(ProblemType.CONFLICT, detail);
    }

    public static PlatformException inUse(String detail) {
        return new PlatformException(ProblemType.IN_USE, detail);
    }

    public static PlatformException staleVersion(long expected, long actual) {
        return new PlatformException(
                ProblemType.STALE_VERSION,
                "you sent version " + expected + " but the current version is " + actual + "; read it again and retry");
    }
}

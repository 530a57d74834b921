package dev.polystack.runner.protocol;

/**
 * The control plane's size limits on what a runner sends (its {@code JobResult} and {@code LogBatch}
 * validation). The agent cuts its reports to them: a report over a limit is refused as a whole, and the
 * job would end without its result.
 */
public final class ProtocolLimits {

    /** An error's summary (characters). */
    public static final int ERROR_SUMMARY = 4096;
    /** An error's detail (characters). */
    public static final int ERROR_DETAIL = 65_536;
    /** The OpenTofu resources a result lists. */
    public static final int RESOURCES = 10_000;
    /** A log line's message (characters). */
    public static final int LOG_MESSAGE = 65_536;
    /** A log line's type, e.g. {@code apply_complete} (characters). */
    public static final int LOG_TYPE = 64;
    /** A log line's level (characters). */
    public static final int LOG_LEVEL = 20;
    /** The lines of one log batch. */
    public static final int LOG_LINES = 5000;

    static final String TRUNCATED = "… (truncated)";

    private ProtocolLimits() {}

    /** {@code text} cut to {@code max} characters, saying so at its end; null stays null. */
    static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        int keep = max - TRUNCATED.length();
        // never split a surrogate pair
        if (keep > 0 && Character.isHighSurrogate(text.charAt(keep - 1))) {
            keep--;
        }
        return text.substring(0, keep) + TRUNCATED;
    }
}

package dev.polystack.platform.common.web;

import dev.polystack.platform.common.problem.PlatformException;

/** Optimistic locking on the wire: {@code ETag: "3"} out, {@code If-Match: "3"} (or a body version) in. */
public final class Versions {

    private Versions() {}

    public static String etag(long version) {
        return "\"" + version + "\"";
    }

    /**
     * The version the caller based its change on, from If-Match or the body; null when it sent
     * neither. Both given and different is a validation error.
     */
    public static Long expected(String ifMatch, Long bodyVersion) {
        Long header = null;
        if (ifMatch != null && !ifMatch.isBlank() && !ifMatch.trim().equals("*")) {
            String value = ifMatch.trim();
            if (value.startsWith("W/")) {
                value = value.substring(2);
            }
            value = value.replace("\"", "");
            try {
                header = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw PlatformException.invalid("If-Match", "must be the ETag of the object, e.g. \"3\"");
            }
        }
        if (header != null && bodyVersion != null && !header.equals(bodyVersion)) {
            throw PlatformException.invalid("/version", "differs from the If-Match header");
        }
        return header != null ? header : bodyVersion;
    }

    public static void check(Long expected, long actual) {
        if (expected != null && expected != actual) {
            throw PlatformException.staleVersion(expected, actual);
        }
    }
}

package dev.polystack.platform.common.web;

import dev.polystack.platform.common.problem.PlatformException;

import java.time.Duration;
import java.util.Locale;

/** Durations in query parameters: {@code 30s}, {@code 500ms} or a number of seconds. */
public final class Durations {

    private Durations() {}

    public static Duration parse(String text, Duration fallback, Duration max, String parameter) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            String value = text.trim().toLowerCase(Locale.ROOT);
            Duration duration = value.endsWith("ms")
                    ? Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2)))
                    : value.endsWith("s")
                            ? Duration.ofSeconds(Long.parseLong(value.substring(0, value.length() - 1)))
                            : Duration.ofSeconds(Long.parseLong(value));
            if (duration.isNegative() || duration.compareTo(max) > 0) {
                throw new NumberFormatException();
            }
            return duration;
        } catch (NumberFormatException e) {
            throw PlatformException.invalid(
                    parameter, "must be a duration of at most " + max.toSeconds() + "s, such as 30s or 500ms");
        }
    }
}

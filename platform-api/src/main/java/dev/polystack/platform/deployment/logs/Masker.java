package dev.polystack.platform.deployment.logs;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * Replaces secret values with {@code ***} in text from a runner, before it is stored. Besides each
 * value as it is, it masks the form a value takes inside a JSON string (OpenTofu's {@code -json} lines
 * escape quotes, backslashes and control characters) and each line of a value that spans several
 * (a private key is logged line by line). Values shorter than {@link #SHORTEST} characters are not
 * masked: they would blank out ordinary words and numbers.
 */
public final class Masker {

    public static final int SHORTEST = 4;
    public static final String MASK = "***";
    private static final Set<String> LEVELS = Set.of("trace", "debug", "info", "warn", "error");

    /** Longest first, so that a secret containing another is masked whole. */
    private final List<String> values;

    private Masker(List<String> values) {
        this.values = values;
    }

    public static Masker of(Collection<String> secrets) {
        Set<String> forms = new TreeSet<>();
        for (String secret : secrets) {
            if (secret == null) {
                continue;
            }
            forms.add(secret);
            forms.add(jsonEscaped(secret));
            if (secret.indexOf('\n') >= 0) {
                for (String line : secret.split("\\R")) {
                    forms.add(line.strip());
                }
            }
        }
        forms.removeIf(form -> form.length() < SHORTEST);
        return new Masker(forms.stream()
                .sorted(Comparator.comparingInt(String::length).reversed().thenComparing(Comparator.naturalOrder()))
                .toList());
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public String mask(String text) {
        if (text == null || values.isEmpty()) {
            return text;
        }
        String masked = text;
        for (String value : values) {
            if (masked.contains(value)) {
                masked = masked.replace(value, MASK);
            }
        }
        return masked;
    }

    /** One of OpenTofu's levels (trace, debug, info, warn, error); anything else is {@code info}. */
    public static String level(String level) {
        if (level == null) {
            return "info";
        }
        String lower = level.strip().toLowerCase(Locale.ROOT);
        if (lower.equals("warning")) {
            return "warn";
        }
        return LEVELS.contains(lower) ? lower : "info";
    }

    private static String jsonEscaped(String value) {
        StringBuilder out = new StringBuilder(value.length() + 8);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.toString();
    }
}

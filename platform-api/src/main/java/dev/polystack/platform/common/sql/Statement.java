package dev.polystack.platform.common.sql;

import java.util.Arrays;

/** A SQL statement with its positional parameters, handed from the component that knows it to one that runs it. */
public record Statement(String sql, Object... parameters) {

    /** The parameters of a statement made of parts: {@code first}'s, then {@code then}. */
    public static Object[] joined(Object[] first, Object... then) {
        Object[] all = Arrays.copyOf(first, first.length + then.length);
        System.arraycopy(then, 0, all, first.length, then.length);
        return all;
    }

    @Override
    public String toString() {
        // parameters may be secret (token hashes, say): only the text is shown
        return "Statement[" + sql + "]";
    }
}

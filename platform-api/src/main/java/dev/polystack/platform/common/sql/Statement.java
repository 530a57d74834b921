package dev.polystack.platform.common.sql;

import java.util.Arrays;

/** A SQL statement with its positional parameters, handed from the component that knows it to one that runs it. */
public record Statement(String sql, Object... parameters) {

    @Override
    public boolean equals(Object other) {
        return other instanceof Statement that && sql.equals(that.sql) && Arrays.equals(parameters, that.parameters);
    }

    @Override
    public int hashCode() {
        return 31 * sql.hashCode() + Arrays.hashCode(parameters);
    }

    @Override
    public String toString() {
        // parameters may be secret (token hashes, say): only the text is shown
        return "Statement[" + sql + "]";
    }
}

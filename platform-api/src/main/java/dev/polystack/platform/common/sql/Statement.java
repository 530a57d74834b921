package dev.polystack.platform.common.sql;

/** A SQL statement with its positional parameters, handed from the component that knows it to one that runs it. */
public record Statement(String sql, Object... parameters) {

    @Override
    public String toString() {
        // parameters may be secret (token hashes, say): only the text is shown
        return "Statement[" + sql + "]";
    }
}

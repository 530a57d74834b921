package dev.polystack.platform.common.sql;

import java.sql.Timestamp;
import java.time.Instant;
import java.time.OffsetDateTime;

/** Moments read from the database, as whichever type the driver or Hibernate hands back for a timestamp. */
public final class SqlTimes {

    private SqlTimes() {}

    /**
     * A {@code timestamptz} value as an instant: the JDBC driver gives an {@link OffsetDateTime} or a
     * {@link Timestamp}, Hibernate's native queries an {@link Instant}; null stays null.
     */
    public static Instant instant(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Instant instant) {
            return instant;
        }
        if (value instanceof OffsetDateTime offset) {
            return offset.toInstant();
        }
        if (value instanceof Timestamp timestamp) {
            return timestamp.toInstant();
        }
        throw new IllegalStateException("not a time: " + value.getClass().getName());
    }
}

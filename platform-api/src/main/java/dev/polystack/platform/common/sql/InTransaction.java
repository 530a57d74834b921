package dev.polystack.platform.common.sql;

import jakarta.persistence.EntityManager;
import org.hibernate.Session;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Plain statements on the current transaction's connection, for the runner protocol's hot path. A native
 * query through the persistence session costs more than its round trip there: the session is flushed
 * before it (every loaded entity dirty-checked, JSON columns compared), and its result is mapped by
 * reading the result set's metadata again at every execution. These statements skip both, so a caller
 * whose statement must see changes it made through entities flushes them first.
 */
public final class InTransaction {

    private InTransaction() {}

    /** Reads the first row of a result; the statement must return one. */
    public static <T> T queryOne(EntityManager entityManager, String sql, Autocommit.Row<T> row, Object... parameters) {
        return entityManager.unwrap(Session.class).doReturningWork(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                bind(statement, parameters);
                try (ResultSet result = statement.executeQuery()) {
                    if (!result.next()) {
                        throw new IllegalStateException("no row from: " + sql);
                    }
                    return row.read(result);
                }
            }
        });
    }

    /** Reads every row of a result. */
    public static <T> List<T> queryAll(
            EntityManager entityManager, String sql, Autocommit.Row<T> row, Object... parameters) {
        return entityManager.unwrap(Session.class).doReturningWork(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                bind(statement, parameters);
                try (ResultSet result = statement.executeQuery()) {
                    List<T> rows = new ArrayList<>();
                    while (result.next()) {
                        rows.add(row.read(result));
                    }
                    return rows;
                }
            }
        });
    }

    /** Runs an update (or a statement whose result is not needed) and returns the rows it changed. */
    public static int execute(EntityManager entityManager, String sql, Object... parameters) {
        return entityManager.unwrap(Session.class).doReturningWork(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                bind(statement, parameters);
                if (statement.execute()) {
                    return 0;
                }
                return statement.getUpdateCount();
            }
        });
    }

    /**
     * Runs several statements, separated by semicolons, in one round trip, each with a snapshot of its own taken
     * when it starts (so a later one sees what committed while an earlier one waited for a lock), and returns the
     * rows the last one changed. Results of the earlier ones are read past.
     */
    public static int executeInOneRoundTrip(EntityManager entityManager, String sql, Object... parameters) {
        return entityManager.unwrap(Session.class).doReturningWork(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                bind(statement, parameters);
                boolean resultSet = statement.execute();
                int last = resultSet ? 0 : statement.getUpdateCount();
                while (true) {
                    resultSet = statement.getMoreResults();
                    int count = statement.getUpdateCount();
                    if (!resultSet && count == -1) {
                        return last;
                    }
                    last = resultSet ? 0 : count;
                }
            }
        });
    }

    /**
     * Runs {@code before}, then the query, in one round trip, and reads every row of the query's result. The
     * statements of {@code before} are writes of the same transaction whose results are not needed, and return no
     * rows (no {@code returning}, no {@code select}): the first result set read is the query's. They ride along with
     * the query instead of costing a round trip each.
     */
    public static <T> List<T> queryAllAfter(
            EntityManager entityManager,
            List<Statement> before,
            String sql,
            Autocommit.Row<T> row,
            Object... parameters) {
        if (before.isEmpty()) {
            return queryAll(entityManager, sql, row, parameters);
        }
        Statement all = together(before, new Statement(sql, parameters));
        return entityManager.unwrap(Session.class).doReturningWork(connection -> {
            try (PreparedStatement statement = connection.prepareStatement(all.sql())) {
                bind(statement, all.parameters());
                boolean resultSet = statement.execute();
                // the query is the last statement, and the only one with a result set
                while (!resultSet) {
                    if (statement.getUpdateCount() == -1) {
                        throw new IllegalStateException("no result from: " + sql);
                    }
                    resultSet = statement.getMoreResults();
                }
                try (ResultSet result = statement.getResultSet()) {
                    List<T> rows = new ArrayList<>();
                    while (result.next()) {
                        rows.add(row.read(result));
                    }
                    return rows;
                }
            }
        });
    }

    /**
     * Runs the statements, writes whose results are not needed, in one round trip; none, in none. Returns the rows
     * the last one changed (0 for none).
     */
    public static int executeAll(EntityManager entityManager, List<Statement> statements) {
        if (statements.isEmpty()) {
            return 0;
        }
        Statement all = together(statements, null);
        return executeInOneRoundTrip(entityManager, all.sql(), all.parameters());
    }

    /** The statements as one text of statements separated by semicolons, with their parameters in order. */
    private static Statement together(List<Statement> statements, Statement last) {
        StringBuilder sql = new StringBuilder();
        Object[] parameters = new Object[0];
        List<Statement> all = new ArrayList<>(statements);
        if (last != null) {
            all.add(last);
        }
        for (Statement statement : all) {
            if (!sql.isEmpty()) {
                sql.append(";\n");
            }
            sql.append(statement.sql());
            parameters = joined(parameters, statement.parameters());
        }
        return new Statement(sql.toString(), parameters);
    }

    /** Binds a plain statement's parameters; an {@link Instant} as a timestamp with time zone. */
    static void bind(PreparedStatement statement, Object[] parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            Object value = parameters[i];
            statement.setObject(
                    i + 1,
                    value instanceof Instant instant ? OffsetDateTime.ofInstant(instant, ZoneOffset.UTC) : value);
        }
    }

    /** The parameters of a statement made of parts: {@code first}'s, then {@code then}. */
    public static Object[] joined(Object[] first, Object... then) {
        Object[] all = Arrays.copyOf(first, first.length + then.length);
        System.arraycopy(then, 0, all, first.length, then.length);
        return all;
    }
}

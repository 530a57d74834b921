package dev.polystack.platform.common.sql;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One statement on its own connection, outside any transaction: for the reads that nearly every request
 * makes (its credentials, its organization, whether what it holds is still current). A transaction and a
 * persistence session for each would cost two more round trips and most of the CPU such a request needs.
 * Only for single statements that need to see nothing uncommitted.
 */
@ApplicationScoped
public class Autocommit {

    /** Reads the current row of a result. */
    @FunctionalInterface
    public interface Row<T> {
        T read(ResultSet row) throws SQLException;
    }

    @Inject
    DataSource dataSource;

    /** The first row the query returns, if any. */
    public <T> Optional<T> first(String sql, Row<T> reader, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = prepared(connection, sql, parameters);
                ResultSet row = statement.executeQuery()) {
            return row.next() ? Optional.ofNullable(reader.read(row)) : Optional.empty();
        } catch (SQLException e) {
            throw new IllegalStateException("could not run a single read (" + e.getSQLState() + ")", e);
        }
    }

    /** Every row the query returns. */
    public <T> List<T> all(String sql, Row<T> reader, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = prepared(connection, sql, parameters);
                ResultSet row = statement.executeQuery()) {
            List<T> rows = new ArrayList<>();
            while (row.next()) {
                rows.add(reader.read(row));
            }
            return rows;
        } catch (SQLException e) {
            throw new IllegalStateException("could not run a single read (" + e.getSQLState() + ")", e);
        }
    }

    /** Runs an update; returns how many rows it changed. */
    public int update(String sql, Object... parameters) {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement statement = prepared(connection, sql, parameters)) {
            return statement.executeUpdate();
        } catch (SQLException e) {
            throw new IllegalStateException("could not run a single update (" + e.getSQLState() + ")", e);
        }
    }

    private static PreparedStatement prepared(Connection connection, String sql, Object... parameters)
            throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        InTransaction.bind(statement, parameters);
        return statement;
    }
}

package dev.polystack.platform.bootstrap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The embedded database is the default store of a real installation, not a test fixture: a commit it
 * acknowledged survives a crash of the machine, and a crash never leaves its cluster corrupt.
 */
class EmbeddedDatabaseTest {

    @TempDir
    Path dataDir;

    @Test
    void aCommitIsOnDiskBeforeItIsAcknowledged() throws Exception {
        try (EmbeddedDatabase database = EmbeddedDatabase.start(dataDir, Optional.empty());
                Connection connection = DriverManager.getConnection(database.jdbcUrl(), "postgres", "")) {
            // the library this runs on turns both off by default, as a test database would
            assertThat(setting(connection, "fsync")).as("fsync").isEqualTo("on");
            assertThat(setting(connection, "synchronous_commit"))
                    .as("synchronous_commit")
                    .isEqualTo("on");
            assertThat(setting(connection, "full_page_writes"))
                    .as("full_page_writes")
                    .isEqualTo("on");
        }
    }

    private static String setting(Connection connection, String name) throws Exception {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("show " + name)) {
            row.next();
            return row.getString(1);
        }
    }
}

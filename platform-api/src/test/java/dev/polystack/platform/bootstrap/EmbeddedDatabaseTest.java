package dev.polystack.platform.bootstrap;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.function.IntSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    @Test
    void aPortTakenBeforePostgresListensIsGivenUpForAnother() throws Exception {
        // the port is chosen free and then taken by another process before PostgreSQL binds it
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Deque<Integer> chosen = new ArrayDeque<>(List.of(taken.getLocalPort()));
            IntSupplier ports = () -> chosen.isEmpty() ? EmbeddedDatabase.freePort() : chosen.poll();
            try (EmbeddedDatabase database = EmbeddedDatabase.start(dataDir, Optional.empty(), ports);
                    Connection connection = DriverManager.getConnection(database.jdbcUrl(), "postgres", "")) {
                assertThat(database.port()).isNotEqualTo(taken.getLocalPort());
                assertThat(setting(connection, "port")).isEqualTo(Integer.toString(database.port()));
            }
        }
    }

    @Test
    void portsThatStayTakenEndTheStartWithAnErrorNamingThem() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> EmbeddedDatabase.start(dataDir, Optional.empty(), () -> port)
                            .close())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ports " + port + ", " + port + ", " + port + " were in use")
                    .hasMessageContaining("POLYSTACK_DB_URL");
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

package dev.polystack.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DeviceSignInTest {

    @TempDir
    Path home;

    @Test
    void aSessionIsRenewedShortlyBeforeItsAccessTokenEnds() {
        Instant now = Instant.parse("2026-12-01T12:00:00Z");
        DeviceSignIn.Session session =
                new DeviceSignIn.Session("https://idp/token", "polystack-cli", "r", now.plusSeconds(60));
        assertThat(DeviceSignIn.due(session, now)).isFalse();
        assertThat(DeviceSignIn.due(session, now.plusSeconds(31))).isTrue();
        assertThat(DeviceSignIn.due(session, now.plusSeconds(600))).isTrue();
        assertThat(DeviceSignIn.due(null, now))
                .as("an API token is never renewed")
                .isFalse();
    }

    @Test
    void aStoredSessionIsReadBackAndNeverAppliedToATokenFromTheEnvironment() throws Exception {
        Path file = home.resolve("config");
        Settings settings = Settings.load(file);
        DeviceSignIn.Session session = new DeviceSignIn.Session(
                "https://idp/token", "polystack-cli", "refresh-1", Instant.parse("2026-12-01T12:00:00Z"));
        settings.put("work", new Settings.Context("https://ps.example", "access-1", "acme/shop/prod", session));
        settings.use("work");
        settings.save();
        assertThat(Files.readString(file)).contains("refresh-1");

        Settings read = Settings.load(file);
        Settings.Context stored = read.resolve(null, Map.of()).orElseThrow();
        assertThat(stored.token()).isEqualTo("access-1");
        assertThat(stored.session()).isEqualTo(session);
        Settings.Context ci =
                read.resolve(null, Map.of("POLYSTACK_TOKEN", "pst_ci")).orElseThrow();
        assertThat(ci.token()).isEqualTo("pst_ci");
        assertThat(ci.session()).isNull();
    }
}

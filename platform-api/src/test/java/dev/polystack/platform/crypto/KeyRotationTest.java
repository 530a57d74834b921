package dev.polystack.platform.crypto;

import dev.polystack.platform.testing.PostgresResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import javax.crypto.spec.SecretKeySpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.Base64;
import java.util.Map;
import java.util.UUID;

import static dev.polystack.platform.testing.Api.admin;
import static dev.polystack.platform.testing.Api.createOrg;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.equalTo;

/** Key 2 is current and key 1 the previous one: values sealed with 1 still open, and rotation moves them to 2. */
@QuarkusTest
@TestProfile(KeyRotationTest.TwoKeys.class)
@QuarkusTestResource(PostgresResource.class)
class KeyRotationTest {

    static final byte[] OLD = new byte[32];
    static final byte[] NEW = new byte[32];

    static {
        for (int i = 0; i < 32; i++) {
            OLD[i] = (byte) i;
            NEW[i] = (byte) (100 + i);
        }
    }

    public static class TwoKeys implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "polystack.encryption.key",
                    Base64.getEncoder().encodeToString(NEW),
                    "polystack.encryption.key-id",
                    "2",
                    "polystack.encryption.previous-keys",
                    Base64.getEncoder().encodeToString(OLD));
        }
    }

    @Inject
    AgroalDataSource dataSource;

    @Inject
    KeyRotation rotation;

    @Test
    void valuesSealedWithThePreviousKeyStillOpenAndRotationMovesThemToTheNewOne() throws Exception {
        String org = createOrg();
        admin().body(Map.of(
                        "provider_type",
                        "aws",
                        "id",
                        "p",
                        "source",
                        "hashicorp/aws",
                        "secrets",
                        Map.of("secret_key", "rotate-me")))
                .post("/api/v1/orgs/{org}/providers", org)
                .then()
                .statusCode(201);
        UUID provider;
        byte[] sealed;
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement(
                        "select p.id, p.secret_configuration from provider p join organization o on o.id = p.org_id where o.slug = ?")) {
            s.setString(1, org);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                provider = (UUID) rs.getObject(1);
                sealed = rs.getBytes(2);
            }
        }
        assertThat(sealed[1]).as("new values use the current key").isEqualTo((byte) 2);
        SecretBox both = new SecretBox(2, Map.of(1, new SecretKeySpec(OLD, "AES"), 2, new SecretKeySpec(NEW, "AES")));
        SecretBox oldOnly = new SecretBox(1, Map.of(1, new SecretKeySpec(OLD, "AES")));
        byte[] plain = both.open(sealed, "provider:" + provider);
        byte[] resealedOld = oldOnly.seal(plain, "provider:" + provider);
        update(provider, resealedOld);

        admin().get("/api/v1/orgs/{org}/providers/aws/p", org)
                .then()
                .statusCode(200)
                .body("secrets.secret_key", equalTo("***"));
        assertThat(rotation.rotate()).isGreaterThanOrEqualTo(1);
        byte[] rotated = read(provider);
        assertThat(rotated[1]).isEqualTo((byte) 2);
        SecretBox newOnly = new SecretBox(2, Map.of(2, new SecretKeySpec(NEW, "AES")));
        assertThat(new String(newOnly.open(rotated, "provider:" + provider))).contains("rotate-me");
        assertThatThrownBy(() -> newOnly.open(resealedOld, "provider:" + provider))
                .hasMessageContaining("key 1");
        assertThat(rotation.rotate()).as("nothing left to rotate").isZero();
    }

    @Test
    void aValueMovedToAnotherRowDoesNotOpen() {
        SecretBox box = new SecretBox(1, Map.of(1, new SecretKeySpec(OLD, "AES")));
        byte[] sealed = box.seal("x".getBytes(), "provider:a");
        assertThatThrownBy(() -> box.open(sealed, "provider:b")).hasMessageContaining("wrong key or tampered");
    }

    private void update(UUID provider, byte[] value) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("update provider set secret_configuration = ? where id = ?")) {
            s.setBytes(1, value);
            s.setObject(2, provider);
            s.executeUpdate();
        }
    }

    private byte[] read(UUID provider) throws Exception {
        try (Connection c = dataSource.getConnection();
                PreparedStatement s = c.prepareStatement("select secret_configuration from provider where id = ?")) {
            s.setObject(1, provider);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getBytes(1);
            }
        }
    }
}

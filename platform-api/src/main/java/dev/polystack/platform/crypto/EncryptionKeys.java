package dev.polystack.platform.crypto;

import dev.polystack.platform.common.PolystackConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where the encryption keys come from: {@code POLYSTACK_ENCRYPTION_KEY} (base64 of 32 bytes) when set,
 * otherwise a key generated once into {@code <data dir>/encryption-key} (mode 0600). Keys that were
 * current before a rotation go in {@code POLYSTACK_ENCRYPTION_PREVIOUS_KEYS} (comma separated) so
 * that old values still open.
 */
@ApplicationScoped
public class EncryptionKeys {

    private static final Logger LOG = Logger.getLogger(EncryptionKeys.class);

    @Produces
    @Singleton
    SecretBox secretBox(PolystackConfig polystack) {
        PolystackConfig.Encryption config = polystack.encryption();
        Map<Integer, SecretKey> keys = new HashMap<>();
        int currentId = config.keyId();
        if (currentId < 1 || currentId > 255) {
            throw new IllegalStateException("polystack.encryption.key-id must be between 1 and 255");
        }
        keys.put(
                currentId,
                decode(config.key().orElseGet(() -> generatedKey(polystack.dataDir())), "polystack.encryption.key"));
        List<String> previous = config.previousKeys().orElse(List.of());
        for (int i = 0; i < previous.size(); i++) {
            // previous keys take the ids just below the current one, newest last
            int id = currentId - previous.size() + i;
            if (id < 1) {
                throw new IllegalStateException("more previous keys than key ids below polystack.encryption.key-id");
            }
            keys.put(id, decode(previous.get(i), "polystack.encryption.previous-keys"));
        }
        return new SecretBox(currentId, keys);
    }

    private static SecretKey decode(String base64, String name) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(name + " is not base64");
        }
        if (raw.length != 32) {
            throw new IllegalStateException(name + " must be 32 bytes (256 bits) encoded in base64");
        }
        return new SecretKeySpec(raw, "AES");
    }

    private static String generatedKey(Path dataDir) {
        Path file = dataDir.resolve("encryption-key");
        try {
            if (Files.exists(file)) {
                return Files.readString(file).trim();
            }
            Files.createDirectories(dataDir);
            byte[] raw = new byte[32];
            new SecureRandom().nextBytes(raw);
            String key = Base64.getEncoder().encodeToString(raw);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, key + "\n");
            LOG.infof("Generated an encryption key in %s; back it up, encrypted data cannot be read without it", file);
            return key;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "could not read or create the encryption key " + file + "; set POLYSTACK_ENCRYPTION_KEY instead",
                    e);
        }
    }
}

package dev.polystack.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;

/** The runner's Ed25519 key pair: the private key stays with the agent; the public key is registered. */
public final class Keys {

    private Keys() {}

    /** Writes a new key pair: the private key (0600) and {@code <file>.pub}; returns the public key PEM. */
    public static String generate(Path privateKeyFile) throws IOException {
        KeyPair pair;
        try {
            pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this Java has no Ed25519", e);
        }
        if (Files.exists(privateKeyFile)) {
            throw new IOException(privateKeyFile + " exists already; remove it first or choose another --key-file");
        }
        Path parent = privateKeyFile.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Files.createFile(
                privateKeyFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(
                privateKeyFile,
                pem("PRIVATE KEY", pair.getPrivate().getEncoded()),
                StandardOpenOption.TRUNCATE_EXISTING);
        String publicPem = pem("PUBLIC KEY", pair.getPublic().getEncoded());
        Files.writeString(Path.of(privateKeyFile + ".pub"), publicPem);
        return publicPem;
    }

    /** Reads a PEM PKCS#8 Ed25519 private key, as written by {@link #generate} or {@code openssl genpkey -algorithm ed25519}. */
    public static PrivateKey load(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            throw new AgentConfig.ConfigException("cannot read the private key " + file + " (" + e.getMessage()
                    + "); create one with `java -jar runner-agent.jar keygen --key-file=" + file + "`");
        }
        String begin = "-----BEGIN PRIVATE KEY-----";
        String end = "-----END PRIVATE KEY-----";
        if (!text.startsWith(begin) || !text.endsWith(end)) {
            throw new AgentConfig.ConfigException(file + " is not a PEM private key (" + begin + ")");
        }
        try {
            byte[] der = Base64.getMimeDecoder().decode(text.substring(begin.length(), text.length() - end.length()));
            return KeyFactory.getInstance("Ed25519").generatePrivate(new PKCS8EncodedKeySpec(der));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new AgentConfig.ConfigException(file + " is not an Ed25519 private key");
        }
    }

    static String pem(String type, byte[] der) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der);
        return "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n";
    }

    static String publicPem(PublicKey key) {
        return pem("PUBLIC KEY", key.getEncoded());
    }
}

package dev.polystack.platform.runner;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.interfaces.EdECPublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/** Runner public keys: Ed25519 in PEM ({@code -----BEGIN PUBLIC KEY-----}, X.509 SubjectPublicKeyInfo). */
public final class RunnerKeys {

    private static final String BEGIN = "-----BEGIN PUBLIC KEY-----";
    private static final String END = "-----END PUBLIC KEY-----";

    private RunnerKeys() {}

    /**
     * Parses a PEM public key and checks that it is Ed25519.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    public static PublicKey parse(String pem) {
        String text = pem == null ? "" : pem.trim();
        if (!text.startsWith(BEGIN) || !text.endsWith(END)) {
            throw new IllegalArgumentException("must be a PEM public key between " + BEGIN + " and " + END);
        }
        byte[] der;
        try {
            der = Base64.getMimeDecoder().decode(text.substring(BEGIN.length(), text.length() - END.length()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the PEM body is not base64");
        }
        try {
            PublicKey key = KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
            if (!(key instanceof EdECPublicKey)) {
                throw new IllegalArgumentException("must be an Ed25519 key");
            }
            return key;
        } catch (GeneralSecurityException | ClassCastException e) {
            throw new IllegalArgumentException("must be an Ed25519 public key (generate one with `runner-agent keygen`"
                    + " or `openssl genpkey -algorithm ed25519`)");
        }
    }

    /** The canonical PEM form of a key: 64-character lines, trailing newline. */
    public static String toPem(PublicKey key) {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(key.getEncoded());
        return BEGIN + "\n" + body + "\n" + END + "\n";
    }
}

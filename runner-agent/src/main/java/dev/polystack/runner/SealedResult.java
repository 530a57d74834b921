package dev.polystack.runner;

import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * A job pod's result travels through its log, which Kubernetes keeps in plain text; it may hold sensitive
 * outputs, so it is sealed with AES-256-GCM under a key only the agent and the pod (through the job's
 * Secret) know.
 */
final class SealedResult {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int IV_BYTES = 12;
    private static final int TAG_BITS = 128;

    private SealedResult() {}

    static String newKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    static String seal(byte[] plain, String key) {
        try {
            byte[] iv = new byte[IV_BYTES];
            RANDOM.nextBytes(iv);
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(
                    Cipher.ENCRYPT_MODE,
                    new SecretKeySpec(Base64.getDecoder().decode(key), "AES"),
                    new GCMParameterSpec(TAG_BITS, iv));
            byte[] sealed = cipher.doFinal(plain);
            byte[] out = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, out, 0, IV_BYTES);
            System.arraycopy(sealed, 0, out, IV_BYTES, sealed.length);
            return Base64.getEncoder().encodeToString(out);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available", e);
        }
    }

    /** The plain bytes; throws when the text was not sealed with this key or was changed. */
    static byte[] open(String sealed, String key) throws GeneralSecurityException {
        byte[] in;
        try {
            in = Base64.getDecoder().decode(sealed.trim());
        } catch (IllegalArgumentException e) {
            throw new GeneralSecurityException("not a sealed result");
        }
        if (in.length <= IV_BYTES) {
            throw new GeneralSecurityException("not a sealed result");
        }
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(
                Cipher.DECRYPT_MODE,
                new SecretKeySpec(Base64.getDecoder().decode(key), "AES"),
                new GCMParameterSpec(TAG_BITS, Arrays.copyOfRange(in, 0, IV_BYTES)));
        return cipher.doFinal(in, IV_BYTES, in.length - IV_BYTES);
    }
}

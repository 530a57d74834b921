package dev.polystack.platform.crypto;

import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Map;

/**
 * AES-256-GCM encryption of values at rest. A sealed value is
 * {@code [format 0x01][key id, 1 byte][nonce, 12 bytes][ciphertext + 16-byte tag]}; the key id lets
 * old values be opened after a rotation while new ones are sealed with the current key. The
 * associated data binds a value to where it is stored, so a ciphertext copied to another row fails.
 */
public final class SecretBox {

    private static final byte FORMAT = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";
    /**
     * One cipher per thread, initialised afresh for every value: looking a cipher up by its name searches the
     * security providers each time (2 % of the control plane's CPU under load, where every job result seals its
     * outputs and every claim seals and opens inputs).
     */
    private static final ThreadLocal<Cipher> CIPHERS = ThreadLocal.withInitial(() -> {
        try {
            return Cipher.getInstance(TRANSFORMATION);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(TRANSFORMATION + " is not available", e);
        }
    });

    private final int currentKeyId;
    private final Map<Integer, SecretKey> keys;

    public SecretBox(int currentKeyId, Map<Integer, SecretKey> keys) {
        if (!keys.containsKey(currentKeyId)) {
            throw new IllegalArgumentException("the current key must be among the keys");
        }
        this.currentKeyId = currentKeyId;
        this.keys = Map.copyOf(keys);
    }

    public byte[] seal(byte[] plaintext, String associatedData) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(Cipher.ENCRYPT_MODE, keys.get(currentKeyId), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            byte[] ciphertext = cipher.doFinal(plaintext);
            return ByteBuffer.allocate(2 + NONCE_BYTES + ciphertext.length)
                    .put(FORMAT)
                    .put((byte) currentKeyId)
                    .put(nonce)
                    .put(ciphertext)
                    .array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("encryption failed", e);
        }
    }

    public byte[] open(byte[] sealed, String associatedData) {
        if (sealed.length < 2 + NONCE_BYTES + TAG_BITS / 8 || sealed[0] != FORMAT) {
            throw new IllegalStateException("not a sealed value");
        }
        SecretKey key = keys.get(sealed[1] & 0xff);
        if (key == null) {
            throw new IllegalStateException("sealed with key " + (sealed[1] & 0xff) + ", which is not configured");
        }
        try {
            Cipher cipher = CIPHERS.get();
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 2, NONCE_BYTES));
            cipher.updateAAD(associatedData.getBytes(StandardCharsets.UTF_8));
            return cipher.doFinal(sealed, 2 + NONCE_BYTES, sealed.length - 2 - NONCE_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("a sealed value could not be opened: wrong key or tampered data");
        }
    }

    public int currentKeyId() {
        return currentKeyId;
    }

    /** Whether a value was sealed with a key other than the current one (and needs re-encryption). */
    public boolean isStale(byte[] sealed) {
        return sealed.length > 1 && (sealed[1] & 0xff) != currentKeyId;
    }
}

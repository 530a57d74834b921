package dev.polystack.platform.common.web;

import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.Request;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * Conditional reads: a weak ETag for a representation that does not change until something it is made of
 * does, and 304 for a client that already has it. Such answers may be kept by the client
 * ({@code private, no-cache}: kept, but asked again each time); everything else under {@code /api} is
 * {@code no-store}.
 */
public final class EntityTags {

    /** A client may keep the answer, and must ask whether it is still current before it uses it. */
    public static final String REVALIDATE = "private, no-cache";

    private EntityTags() {}

    /** An opaque tag made of the parts that decide a representation (none of them shown). */
    public static String of(Object... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Object part : parts) {
                digest.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
                digest.update((byte) 0);
            }
            byte[] hash = digest.digest();
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(hash, 18));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JVM", e);
        }
    }

    /** Whether the request's If-None-Match names the tag (weak comparison; lists and {@code *} included). */
    public static boolean unchanged(Request request, Optional<String> tag) {
        return tag.isPresent() && request.evaluatePreconditions(weak(tag.get())) != null;
    }

    public static EntityTag weak(String value) {
        return new EntityTag(value, true);
    }
}

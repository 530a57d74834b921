package dev.polystack.platform.common.web;

import jakarta.ws.rs.core.EntityTag;
import jakarta.ws.rs.core.Request;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.Properties;

/**
 * Conditional reads: a weak ETag for a representation that does not change until something it is made of
 * does, and 304 for a client that already has it. Such answers may be kept by the client
 * ({@code private, no-cache}: kept, but asked again each time); everything else under {@code /api} is
 * {@code no-store}.
 */
public final class EntityTags {

    /** A client may keep the answer, and must ask whether it is still current before it uses it. */
    public static final String REVALIDATE = "private, no-cache";

    /**
     * The build that runs (its version and when it was built, from {@code polystack-release.properties}, which the
     * build writes): every tag names it, since an upgrade may change how a representation is written without any
     * migration of the data it is made of. Replicas that run the same build make the same tags.
     */
    public static final String RELEASE = release();

    private EntityTags() {}

    /**
     * An opaque tag made of the parts that decide a representation (none of them shown), and of the running
     * build's {@link #RELEASE}.
     */
    public static String of(Object... parts) {
        return ofRelease(RELEASE, parts);
    }

    static String ofRelease(String release, Object... parts) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(release.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
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

    private static String release() {
        try (InputStream in = EntityTags.class.getResourceAsStream("/polystack-release.properties")) {
            if (in == null) {
                throw new IllegalStateException("polystack-release.properties is missing: the build writes it");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version") + " " + properties.getProperty("built");
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read polystack-release.properties", e);
        }
    }
}

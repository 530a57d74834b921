package dev.polystack.platform.common.web;

import dev.polystack.platform.common.problem.PlatformException;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.UUID;

/**
 * Keyset pagination parameters. The page token is opaque to clients: it carries the sort key of the
 * last item of the previous page, so pages stay stable while objects are added.
 */
public class PageRequest {

    public static final int MAX_LIMIT = 500;

    @QueryParam("limit")
    @DefaultValue("50")
    @Parameter(description = "Items per page, 1 to 500")
    int limit;

    @QueryParam("page_token")
    @Parameter(description = "The next_page_token of the previous page")
    String pageToken;

    public PageRequest() {}

    public PageRequest(int limit, String pageToken) {
        this.limit = limit;
        this.pageToken = pageToken;
    }

    public int limit() {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw PlatformException.invalid("limit", "must be between 1 and " + MAX_LIMIT);
        }
        return limit;
    }

    /** The sort key after which this page starts, or null for the first page. */
    public String after() {
        if (pageToken == null || pageToken.isBlank()) {
            return null;
        }
        String key;
        try {
            key = new String(Base64.getUrlDecoder().decode(pageToken.trim()), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
        // the key goes into SQL as a parameter: what PostgreSQL cannot store cannot be one
        if (key.indexOf('\0') >= 0) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
        return key;
    }

    /** A sort key of an instant and an id ({@code "2026-12-02T00:56:19Z|<uuid>"}), newest first. */
    public record InstantAndId(Instant instant, UUID id) {}

    /** {@link #after()} of a list sorted by an instant and an id, or null for the first page. */
    public InstantAndId afterInstantAndId() {
        String after = after();
        if (after == null) {
            return null;
        }
        InstantAndId key;
        try {
            String[] parts = after.split("\\|", 2);
            key = new InstantAndId(Instant.parse(parts[0]), UUID.fromString(parts[1]));
        } catch (DateTimeParseException | IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
        // the API issues tokens of times it stored; an instant the database cannot hold would otherwise be refused
        // by the query, with an answer that does not say which parameter was wrong
        if (key.instant().isBefore(FIRST_INSTANT) || key.instant().isAfter(LAST_INSTANT)) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
        return key;
    }

    private static final Instant FIRST_INSTANT = Instant.parse("0001-01-01T00:00:00Z");

    /** The last instant a page token may name; a list's first page may start after it, as after every row. */
    public static final Instant LAST_INSTANT = Instant.parse("9999-12-31T23:59:59Z");

    public static String tokenFor(String sortKey) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(sortKey.getBytes(StandardCharsets.UTF_8));
    }
}

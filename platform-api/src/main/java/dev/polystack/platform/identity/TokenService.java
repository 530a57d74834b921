package dev.polystack.platform.identity;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.sql.Autocommit;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.quota.QuotaService;
import dev.polystack.platform.security.Caller;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * API tokens: 256 random bits behind the {@code pst_} prefix. Only a SHA-256 hash is stored, which is
 * enough for a secret of that strength and keeps verification to one indexed lookup.
 */
@ApplicationScoped
public class TokenService {

    public static final String PREFIX = "pst_";
    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    ApiTokenRepository tokens;

    @Inject
    PrincipalRepository principals;

    @Inject
    Clock clock;

    @Inject
    Autocommit autocommit;

    /**
     * The caller a token stands for, if the token is known, not revoked and not expired. Every API request
     * asks, so this is one statement outside a transaction, and a use is written at most once a minute.
     */
    public Optional<Caller> authenticate(String token) {
        Instant now = clock.instant();
        OffsetDateTime at = now.atOffset(ZoneOffset.UTC);
        OffsetDateTime stale = now.minus(ApiToken.USE_RESOLUTION).atOffset(ZoneOffset.UTC);
        Optional<Authenticated> found = autocommit.first(
                """
                        select t.id, p.id, p.kind, p.username, p.slug, p.instance_admin,
                               t.last_used_at is null or t.last_used_at < ? as unrecorded
                        from api_token t join principal p on p.id = t.principal_id
                        where t.token_hash = ? and t.revoked_at is null and (t.expires_at is null or t.expires_at > ?)""",
                row -> {
                    boolean service = Principal.Kind.service.name().equals(row.getString(3));
                    return new Authenticated(
                            row.getObject(1, UUID.class),
                            row.getBoolean(7),
                            new Caller(
                                    row.getObject(2, UUID.class),
                                    service ? "service:" + row.getString(5) : row.getString(4),
                                    service,
                                    row.getBoolean(6)));
                },
                stale,
                hash(token),
                at);
        found.filter(Authenticated::unrecorded)
                .ifPresent(use -> autocommit.update(
                        "update api_token set last_used_at = ? where id = ? and (last_used_at is null or last_used_at < ?)",
                        at,
                        use.tokenId(),
                        stale));
        return found.map(Authenticated::caller);
    }

    private record Authenticated(UUID tokenId, boolean unrecorded, Caller caller) {}

    static Caller callerOf(Principal principal) {
        return new Caller(
                principal.id(),
                principal.name(),
                principal.kind() == Principal.Kind.service,
                principal.isInstanceAdmin());
    }

    @Inject
    QuotaService quotas;

    @Transactional
    public CreatedTokenView issueOwn(Caller caller, CreateTokenRequest request) {
        Principal principal = principals.findById(caller.principalId());
        quotas.requireTokenRoom(principal == null ? null : principal.orgId(), caller.principalId());
        return issue(caller.principalId(), request, caller.principalId());
    }

    @Transactional
    public Page<TokenView> listOwn(Caller caller, PageRequest page) {
        return list(caller.principalId(), page);
    }

    @Transactional
    public TokenView revokeOwn(Caller caller, UUID tokenId) {
        return revoke(caller.principalId(), tokenId);
    }

    CreatedTokenView issue(UUID principalId, CreateTokenRequest request, UUID createdBy) {
        String value = newTokenValue();
        ApiToken token = store(principalId, request.name(), value, request.expiresAt(), createdBy);
        return new CreatedTokenView(
                token.id(), token.name(), token.displayPrefix(), token.createdAt(), token.expiresAt(), value);
    }

    ApiToken store(UUID principalId, String name, String value, Instant expiresAt, UUID createdBy) {
        ApiToken token = new ApiToken(
                principalId,
                name,
                hash(value),
                value.substring(0, PREFIX.length() + 4),
                createdBy,
                expiresAt,
                clock.instant());
        tokens.persist(token);
        return token;
    }

    Page<TokenView> list(UUID principalId, PageRequest page) {
        int limit = page.limit();
        List<ApiToken> rows = tokens.page(principalId, page.afterInstantAndId(), limit);
        return Page.of(rows, limit, ApiTokenRepository::sortKey, TokenView::of);
    }

    TokenView revoke(UUID principalId, UUID tokenId) {
        ApiToken token = tokens.find(principalId, tokenId)
                .orElseThrow(() -> PlatformException.notFound("token `" + tokenId + "`"));
        token.revoke(clock.instant());
        return TokenView.of(token);
    }

    void deleteAll(UUID principalId) {
        tokens.delete("principalId", principalId);
    }

    static String newTokenValue() {
        byte[] secret = new byte[32];
        RANDOM.nextBytes(secret);
        return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
    }

    static byte[] hash(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package dev.polystack.platform.identity;

import dev.polystack.platform.common.problem.PlatformException;
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
import java.time.format.DateTimeParseException;
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

    /** The caller a token stands for, if the token is known, not revoked and not expired. */
    @Transactional
    public Optional<Caller> authenticate(String token) {
        Instant now = clock.instant();
        Optional<ApiToken> found = tokens.findByHash(hash(token));
        if (found.isEmpty() || !found.get().isUsableAt(now)) {
            return Optional.empty();
        }
        ApiToken apiToken = found.get();
        Principal principal = principals.findById(apiToken.principalId());
        if (principal == null) {
            return Optional.empty();
        }
        apiToken.markUsed(now);
        return Optional.of(callerOf(principal));
    }

    static Caller callerOf(Principal principal) {
        return new Caller(principal.id(), principal.name(), principal.kind() == Principal.Kind.service,
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
        return new CreatedTokenView(token.id(), token.name(), token.displayPrefix(), token.createdAt(),
                token.expiresAt(), value);
    }

    ApiToken store(UUID principalId, String name, String value, Instant expiresAt, UUID createdBy) {
        ApiToken token = new ApiToken(principalId, name, hash(value), value.substring(0, PREFIX.length() + 4),
                createdBy, expiresAt, clock.instant());
        tokens.persist(token);
        return token;
    }

    Page<TokenView> list(UUID principalId, PageRequest page) {
        int limit = page.limit();
        List<ApiToken> rows;
        try {
            rows = tokens.page(principalId, page.after(), limit);
        } catch (DateTimeParseException | IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
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

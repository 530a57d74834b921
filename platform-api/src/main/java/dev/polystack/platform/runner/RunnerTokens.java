package dev.polystack.platform.runner;

import dev.polystack.platform.organization.OrganizationService;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.NumericDate;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.jwt.consumer.JwtContext;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

/**
 * Runner JWTs: EdDSA (Ed25519) signatures by the runner's private key, with {@code sub} = runner id,
 * {@code org} = organization id, {@code aud} = the configured audience, {@code iat} and {@code exp}
 * at most five minutes apart. Anything else — unknown runner, wrong key, expired, issued in the future
 * beyond a minute of skew, wrong audience, another algorithm — is rejected.
 */
@ApplicationScoped
public class RunnerTokens {

    private static final Logger LOG = Logger.getLogger(RunnerTokens.class);
    static final int MAX_LIFETIME_SECONDS = 300;
    static final int ALLOWED_SKEW_SECONDS = 60;

    private static final JwtConsumer UNVERIFIED = new JwtConsumerBuilder()
            .setSkipAllValidators()
            .setDisableRequireSignature()
            .setSkipSignatureVerification()
            .build();

    @ConfigProperty(name = "polystack.runner.audience", defaultValue = "polystack")
    String audience;

    @Inject
    RunnerRepository runners;

    @Inject
    OrganizationService organizations;

    @Inject
    Clock clock;

    /** The runner is still read on every request: a deleted runner or a replaced key ends its tokens at once. */
    private VerifiedTokens verified;

    @PostConstruct
    void createCache() {
        verified = new VerifiedTokens(clock);
    }

    /** Not one transaction: a known token costs one autocommit read of the runner, an unknown one two reads. */
    public Optional<RunnerCaller> verify(String jwt) {
        Optional<VerifiedTokens.Verified> cached = verified.get(jwt);
        if (cached.isPresent()) {
            VerifiedTokens.Verified known = cached.get();
            Optional<RunnerRepository.Credentials> runner = runners.credentials(known.orgId(), known.subject());
            if (runner.isPresent() && runner.get().publicKey().equals(known.publicKey())) {
                return Optional.of(new RunnerCaller(
                        known.orgId(),
                        known.orgSlug(),
                        runner.get().id(),
                        runner.get().slug(),
                        runner.get().maxConcurrentJobs()));
            }
            verified.forget(jwt);
        }
        try {
            JwtContext context = UNVERIFIED.process(jwt);
            JwtClaims claims = context.getJwtClaims();
            String org = claims.getClaimValueAsString("org");
            String subject = claims.getSubject();
            if (org == null || subject == null) {
                return Optional.empty();
            }
            Optional<UUID> orgId = organizations.findId(org);
            if (orgId.isEmpty()) {
                return Optional.empty();
            }
            Optional<RunnerRepository.Credentials> runner = runners.credentials(orgId.get(), subject);
            if (runner.isEmpty()) {
                return Optional.empty();
            }
            long now = clock.instant().getEpochSecond();
            JwtConsumer verifier = new JwtConsumerBuilder()
                    .setVerificationKey(RunnerKeys.parse(runner.get().publicKey()))
                    .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, "EdDSA")
                    .setExpectedAudience(audience)
                    .setRequireExpirationTime()
                    .setRequireIssuedAt()
                    .setRequireSubject()
                    .setAllowedClockSkewInSeconds(ALLOWED_SKEW_SECONDS)
                    .setMaxFutureValidityInMinutes(MAX_LIFETIME_SECONDS / 60)
                    .setEvaluationTime(NumericDate.fromSeconds(now))
                    .build();
            verifier.processContext(context);
            if (claims.getIssuedAt().getValue() > now + ALLOWED_SKEW_SECONDS
                    || claims.getExpirationTime().getValue()
                                    - claims.getIssuedAt().getValue()
                            > MAX_LIFETIME_SECONDS) {
                return Optional.empty();
            }
            verified.put(
                    jwt,
                    new VerifiedTokens.Verified(
                            orgId.get(),
                            org,
                            subject,
                            runner.get().publicKey(),
                            claims.getExpirationTime().getValue()));
            return Optional.of(new RunnerCaller(
                    orgId.get(),
                    org,
                    runner.get().id(),
                    runner.get().slug(),
                    runner.get().maxConcurrentJobs()));
        } catch (InvalidJwtException | MalformedClaimException | IllegalArgumentException e) {
            LOG.debugf("Rejected a runner token: %s", e.getMessage());
            return Optional.empty();
        }
    }
}

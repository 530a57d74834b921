package dev.polystack.platform.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.polystack.platform.common.Management;
import dev.polystack.platform.common.ReferenceGuard;
import dev.polystack.platform.common.TemplateChecks;
import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.common.web.Versions;
import dev.polystack.platform.crypto.SecretBox;
import dev.polystack.platform.security.OrgScope;
import dev.polystack.rules.graph.ProviderSpec;
import dev.polystack.rules.template.Usage;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

@ApplicationScoped
public class ProviderService {

    private static final TypeReference<Map<String, String>> SECRETS = new TypeReference<>() {};

    @Inject
    ProviderRepository providers;

    @Inject
    ReferenceGuard references;

    @Inject
    SecretBox secretBox;

    @Inject
    ObjectMapper json;

    @Inject
    Clock clock;

    @Transactional
    public ProviderView create(OrgScope scope, ProviderRequest request) {
        if (request.providerType() == null) {
            throw PlatformException.invalid("/provider_type", "must not be null");
        }
        if (request.id() == null) {
            throw PlatformException.invalid("/id", "must not be null");
        }
        if (providers.find(scope.orgId(), request.providerType(), request.id()).isPresent()) {
            throw PlatformException.conflict(
                    "provider `" + request.providerType() + "." + request.id() + "` already exists");
        }
        Provider provider = new Provider(scope.orgId(), request.providerType(), request.id(), clock.instant());
        define(provider, request, Map.of());
        provider.manage(Management.of(request.managedBy(), request.protect()));
        providers.persist(provider);
        return view(provider);
    }

    @Transactional
    public Page<ProviderView> list(OrgScope scope, String providerType, PageRequest page) {
        int limit = page.limit();
        return Page.of(
                providers.page(scope.orgId(), providerType, page.after(), limit),
                limit,
                p -> p.providerType() + "." + p.slug(),
                this::view);
    }

    @Transactional
    public ProviderView get(OrgScope scope, String providerType, String id) {
        return view(require(scope, providerType, id));
    }

    @Transactional
    public ProviderView update(
            OrgScope scope, String providerType, String id, ProviderRequest request, Long expectedVersion) {
        Provider provider = require(scope, providerType, id);
        if (request.providerType() != null && !request.providerType().equals(providerType)) {
            throw PlatformException.invalid("/provider_type", "cannot change; create a new provider instead");
        }
        if (request.id() != null && !request.id().equals(id)) {
            throw PlatformException.invalid("/id", "cannot change; create a new provider instead");
        }
        Versions.check(expectedVersion, provider.version());
        provider.manage(provider.management().with(request.managedBy(), request.protect()));
        define(provider, request, secrets(provider));
        providers.flush();
        return view(provider);
    }

    @Transactional
    public void delete(OrgScope scope, String providerType, String id) {
        Provider provider = require(scope, providerType, id);
        provider.management().requireDeletable("provider `" + providerType + "." + id + "`");
        references.requireUnused("provider", provider.id(), "provider `" + providerType + "." + id + "`");
        providers.delete(provider);
    }

    /** The providers of an organization with their (non-secret) configuration, as the rules engine needs them. */
    public List<ProviderSpec> specs(UUID orgId) {
        return providers.list("orgId", orgId).stream()
                .map(p -> new ProviderSpec(
                        p.providerType(), p.slug(), p.source(), p.versionConstraint(), (ObjectNode) p.configuration()))
                .toList();
    }

    /** The secret configuration values of a provider, decrypted; only for the payload of a claimed job. */
    public Map<String, String> secretsFor(UUID orgId, String providerType, String id) {
        return providers.find(orgId, providerType, id).map(this::secrets).orElse(Map.of());
    }

    /** Whether {@code type.id} names a provider of the organization. */
    public boolean exists(UUID orgId, String providerType, String id) {
        return providers.find(orgId, providerType, id).isPresent();
    }

    private void define(Provider provider, ProviderRequest request, Map<String, String> existingSecrets) {
        JsonNode configuration =
                request.configuration() == null || request.configuration().isNull()
                        ? JsonNodeFactory.instance.objectNode()
                        : request.configuration();
        if (!configuration.isObject()) {
            throw PlatformException.invalid("/configuration", "must be an object");
        }
        TemplateChecks.check(configuration, "configuration", Usage.PROVIDER_CONFIGURATION, null);
        Map<String, String> secrets = new TreeMap<>();
        if (request.secrets() == null) {
            secrets.putAll(existingSecrets);
        } else {
            request.secrets().forEach((name, value) -> {
                if (ProviderRequest.KEEP.equals(value)) {
                    if (!existingSecrets.containsKey(name)) {
                        throw PlatformException.invalid(
                                "/secrets/" + name, "*** keeps an existing value, but there is none");
                    }
                    secrets.put(name, existingSecrets.get(name));
                } else {
                    secrets.put(name, value);
                }
            });
        }
        for (String name : secrets.keySet()) {
            if (configuration.has(name)) {
                throw PlatformException.invalid(
                        "/secrets/" + name, "is also set in /configuration; give it in one place");
            }
        }
        provider.define(
                request.source(),
                request.versionConstraint(),
                configuration,
                secrets.isEmpty() ? null : seal(provider, secrets),
                clock.instant());
    }

    private byte[] seal(Provider provider, Map<String, String> secrets) {
        try {
            return secretBox.seal(json.writeValueAsBytes(secrets), provider.secretBinding());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, String> secrets(Provider provider) {
        if (provider.secretConfiguration() == null) {
            return Map.of();
        }
        try {
            return json.readValue(
                    new String(
                            secretBox.open(provider.secretConfiguration(), provider.secretBinding()),
                            StandardCharsets.UTF_8),
                    SECRETS);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("sealed provider secrets are not a JSON object");
        }
    }

    private ProviderView view(Provider provider) {
        Map<String, String> masked = new TreeMap<>();
        secrets(provider).keySet().forEach(name -> masked.put(name, ProviderRequest.KEEP));
        return new ProviderView(
                provider.providerType(),
                provider.slug(),
                provider.source(),
                provider.versionConstraint(),
                provider.configuration(),
                masked,
                provider.management().managedBy(),
                provider.management().isProtected(),
                provider.createdAt(),
                provider.updatedAt(),
                provider.version());
    }

    private Provider require(OrgScope scope, String providerType, String id) {
        return providers
                .find(scope.orgId(), providerType, id)
                .orElseThrow(() -> PlatformException.notFound("provider `" + providerType + "." + id + "`"));
    }

    Optional<Provider> find(UUID orgId, String providerType, String id) {
        return providers.find(orgId, providerType, id);
    }
}

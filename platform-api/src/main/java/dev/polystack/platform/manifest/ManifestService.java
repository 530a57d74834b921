package dev.polystack.platform.manifest;

import dev.polystack.platform.common.problem.PlatformException;
import dev.polystack.platform.common.web.Page;
import dev.polystack.platform.common.web.PageRequest;
import dev.polystack.platform.environment.EnvironmentService;
import dev.polystack.platform.environment.EnvironmentService.EnvironmentRef;
import dev.polystack.platform.security.OrgScope;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

/** Environments' manifests: each accepted submission is a new immutable version. */
@ApplicationScoped
public class ManifestService {

    @Inject
    ManifestRepository manifests;

    @Inject
    EnvironmentService environments;

    @Inject
    GraphPlanner planner;

    @Inject
    Clock clock;

    /** Validates a manifest against the organization's configuration and stores it as the next version. */
    @Transactional
    public ManifestView submit(OrgScope scope, String project, String env, String content, ManifestFormat format) {
        if (content == null || content.isBlank()) {
            throw PlatformException.invalid("/", "the manifest is empty");
        }
        EnvironmentRef environment = environments.reference(scope, project, env);
        planner.expand(environment, content, format);
        environments.lock(environment.id());
        int next = manifests.latest(environment.id()).map(m -> m.number() + 1).orElse(1);
        ManifestVersion version = new ManifestVersion(
                environment.id(),
                next,
                format,
                content,
                scope.caller().principalId(),
                scope.caller().name(),
                clock.instant());
        manifests.persist(version);
        return view(version, true);
    }

    @Transactional
    public Page<ManifestView> list(OrgScope scope, String project, String env, PageRequest page) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        int limit = page.limit();
        Integer before;
        try {
            before = page.after() == null ? null : Integer.valueOf(page.after());
        } catch (NumberFormatException e) {
            throw PlatformException.invalid("page_token", "is not a token this API issued");
        }
        return Page.of(
                manifests.page(environment.id(), before, limit),
                limit,
                m -> Integer.toString(m.number()),
                m -> view(m, false));
    }

    @Transactional
    public ManifestView get(OrgScope scope, String project, String env, int number) {
        EnvironmentRef environment = environments.reference(scope, project, env);
        return view(
                manifests
                        .find(environment.id(), number)
                        .orElseThrow(() -> PlatformException.notFound(
                                "version " + number + " of the manifest of `" + environment.path() + "`")),
                true);
    }

    /** A manifest version of an environment: the given one, or the latest when {@code number} is null. */
    public Optional<ManifestVersion> find(UUID environmentId, Integer number) {
        return number == null ? manifests.latest(environmentId) : manifests.find(environmentId, number);
    }

    private static ManifestView view(ManifestVersion version, boolean withContent) {
        return new ManifestView(
                version.number(),
                version.format(),
                withContent ? version.content() : null,
                version.createdAt(),
                version.createdByName());
    }
}

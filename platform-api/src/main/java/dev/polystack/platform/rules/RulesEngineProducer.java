package dev.polystack.platform.rules;

import dev.polystack.rules.graph.GraphExpander;
import dev.polystack.rules.manifest.ManifestLimits;
import dev.polystack.rules.manifest.ManifestParser;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

/** The one place where platform-api creates the rules engine's (stateless, thread-safe) parts. */
public class RulesEngineProducer {

    @Produces
    @ApplicationScoped
    ManifestParser manifestParser(ManifestSettings settings) {
        return new ManifestParser(new ManifestLimits(settings.maxResources(), settings.maxParamsPerResource()));
    }

    @Produces
    @ApplicationScoped
    GraphExpander graphExpander() {
        return new GraphExpander();
    }

    /** Manifest limits: {@code POLYSTACK_MANIFEST_MAX_RESOURCES}, {@code POLYSTACK_MANIFEST_MAX_PARAMS_PER_RESOURCE}. */
    @ConfigMapping(prefix = "polystack.manifest")
    public interface ManifestSettings {
        @WithDefault("10000")
        int maxResources();

        @WithDefault("100")
        int maxParamsPerResource();
    }
}

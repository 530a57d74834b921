package dev.polystack.rules.manifest;

/** How large a manifest may be. */
public record ManifestLimits(int maxResources, int maxParamsPerResource) {

    public static final ManifestLimits DEFAULT = new ManifestLimits(10_000, 100);

    public ManifestLimits {
        if (maxResources < 1 || maxParamsPerResource < 0) {
            throw new IllegalArgumentException("limits must be positive");
        }
    }
}

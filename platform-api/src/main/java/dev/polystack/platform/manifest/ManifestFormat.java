package dev.polystack.platform.manifest;

import com.fasterxml.jackson.annotation.JsonValue;

import java.util.Locale;

/** How a manifest was written. */
public enum ManifestFormat {
    YAML("yaml"),
    JSON("json");

    private final String wireName;

    ManifestFormat(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }

    static ManifestFormat fromWire(String value) {
        return "json".equals(value) ? JSON : YAML;
    }

    /** JSON for JSON media types, YAML for everything else (YAML reads JSON too). */
    public static ManifestFormat ofMediaType(String mediaType) {
        return mediaType != null && mediaType.toLowerCase(Locale.ROOT).contains("json") ? JSON : YAML;
    }
}

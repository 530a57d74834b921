package dev.polystack.platform.envtype;

import java.time.Instant;

public record EnvTypeView(String id, String description, Instant createdAt, Instant updatedAt, long version) {

    static EnvTypeView of(EnvType type) {
        return new EnvTypeView(type.slug(), type.description(), type.createdAt(), type.updatedAt(), type.version());
    }
}

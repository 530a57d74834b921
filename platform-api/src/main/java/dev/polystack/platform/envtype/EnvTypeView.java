package dev.polystack.platform.envtype;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

public record EnvTypeView(String id, String description, String managedBy,
                          @JsonProperty("protected") boolean protect, CheckSchedule checks, Instant createdAt, Instant updatedAt,
                          long version) {

    static EnvTypeView of(EnvType type) {
        return new EnvTypeView(type.slug(), type.description(), type.management().managedBy(), type.management().isProtected(), type.checks(),
                type.createdAt(), type.updatedAt(), type.version());
    }
}

package dev.polystack.platform.envtype;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.common.web.ManagedBy;
import dev.polystack.platform.common.web.Slug;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Size;

public record CreateEnvTypeRequest(@Slug String id, @Size(max = 1000) String description,
        @ManagedBy String managedBy, @JsonProperty("protected") Boolean protect, @Valid CheckSchedule checks) {
}

package dev.polystack.platform.project;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.polystack.platform.common.web.ManagedBy;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

public record UpdateProjectRequest(
        @NotBlank @Size(max = 200) String name,
        @ManagedBy String managedBy,
        @JsonProperty("protected") Boolean protect,
        Long version) {}

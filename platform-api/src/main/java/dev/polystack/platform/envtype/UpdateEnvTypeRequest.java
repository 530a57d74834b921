package dev.polystack.platform.envtype;

import jakarta.validation.constraints.Size;

public record UpdateEnvTypeRequest(@Size(max = 1000) String description, Long version) {
}

package dev.polystack.platform.identity;

import jakarta.validation.constraints.Future;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

import java.time.Instant;

public record CreateTokenRequest(
        @NotBlank @Size(max = 200) String name,
        @Future(message = "must be in the future") Instant expiresAt) {}

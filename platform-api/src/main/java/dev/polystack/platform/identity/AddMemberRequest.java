package dev.polystack.platform.identity;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.polystack.platform.security.Role;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.Email;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Adds a user by username or email; a user not seen before is created and matched at first sign-in. */
public record AddMemberRequest(
        @Size(min = 1, max = 100)
        @Pattern(regexp = "^[A-Za-z0-9._@+-]+$", message = "may contain letters, digits and . _ @ + - only")
        String username,

        @Email @Size(max = 254) String email,
        @NotNull Role role) {

    @JsonIgnore
    @Schema(hidden = true)
    @AssertTrue(message = "give a username or an email")
    boolean isIdentified() {
        return username != null || email != null;
    }
}

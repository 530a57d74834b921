package dev.polystack.platform.envtype;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.polystack.platform.security.Role;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;

/**
 * Who must approve a deployment before it applies, in environments of a type. The same settings gate the
 * reconcile deployments that wait for approval (policy {@code approve}, and any fix that deletes or replaces).
 * In an update, an absent policy leaves the stored one as it is, and {@code {}} removes it.
 *
 * @param deployments       whether every deployment that changes or destroys anything waits for approval
 * @param required          how many approvals it needs (default 1)
 * @param approvers         the roles whose members may approve or reject (default platform-engineer and owner)
 * @param allowSelfApproval whether whoever started the deployment may approve it (default false)
 * @param expiresAfterHours how long a plan waits for its approvals before the deployment is cancelled (default 24)
 */
@Schema(name = "ApprovalPolicy")
public record ApprovalPolicy(
        Boolean deployments,
        @Min(1) @Max(10) Integer required,
        @Size(min = 1, max = 4) List<@NotNull Role> approvers,
        Boolean allowSelfApproval,
        @Min(1) @Max(720) Integer expiresAfterHours) {

    public static final int DEFAULT_EXPIRY_HOURS = 24;

    private static final ObjectMapper STORAGE = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    /** What applies where a type says nothing: one approval by a platform engineer or owner, not the author's own. */
    public static final ApprovalPolicy DEFAULT =
            new ApprovalPolicy(false, 1, List.of(Role.PLATFORM_ENGINEER, Role.OWNER), false, DEFAULT_EXPIRY_HOURS);

    /** {@code {}}: no policy. */
    @JsonIgnore
    public boolean isEmpty() {
        return deployments == null
                && required == null
                && approvers == null
                && allowSelfApproval == null
                && expiresAfterHours == null;
    }

    /** Every field set, the defaults where this one says nothing. */
    public ApprovalPolicy withDefaults() {
        return new ApprovalPolicy(
                Boolean.TRUE.equals(deployments),
                required == null ? DEFAULT.required : required,
                approvers == null ? DEFAULT.approvers : List.copyOf(approvers),
                Boolean.TRUE.equals(allowSelfApproval),
                expiresAfterHours == null ? DEFAULT.expiresAfterHours : expiresAfterHours);
    }

    public boolean gatesDeployments() {
        return Boolean.TRUE.equals(deployments);
    }

    public boolean allows(Role role) {
        return withDefaults().approvers.contains(role);
    }

    /** As stored (a jsonb column), every field set, with the API's names. */
    public JsonNode toJson() {
        return STORAGE.valueToTree(withDefaults());
    }

    /** A stored policy, or null where there is none. */
    public static ApprovalPolicy fromJson(JsonNode stored) {
        if (stored == null || stored.isNull() || stored.isMissingNode()) {
            return null;
        }
        try {
            return STORAGE.treeToValue(stored, ApprovalPolicy.class).withDefaults();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a stored approval policy cannot be read", e);
        }
    }
}

package dev.polystack.platform.common.web;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import jakarta.validation.ReportAsSingleViolation;
import jakarta.validation.constraints.Pattern;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.ElementType.RECORD_COMPONENT;
import static java.lang.annotation.ElementType.TYPE_USE;

/**
 * The name of what manages an object (a configuration repository, a team's tool): 1 to 63 letters,
 * digits, dots, dashes or underscores, starting and ending with a letter or digit; empty clears it.
 */
@Documented
@Pattern(regexp = ManagedBy.REGEX)
@ReportAsSingleViolation
@Constraint(validatedBy = {})
@Target({FIELD, METHOD, PARAMETER, RECORD_COMPONENT, TYPE_USE})
@Retention(RetentionPolicy.RUNTIME)
public @interface ManagedBy {

    String REGEX = "^$|^[a-zA-Z0-9]([a-zA-Z0-9._-]{0,61}[a-zA-Z0-9])?$";

    String message() default
            "must be empty or 1-63 letters, digits, dots, dashes or underscores, starting and ending with a letter or digit";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}

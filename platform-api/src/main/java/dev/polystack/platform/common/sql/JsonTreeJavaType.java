package dev.polystack.platform.common.sql;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.hibernate.type.SqlTypes;
import org.hibernate.type.descriptor.WrapperOptions;
import org.hibernate.type.descriptor.java.AbstractClassJavaType;
import org.hibernate.type.descriptor.java.MutableMutabilityPlan;
import org.hibernate.type.descriptor.jdbc.JdbcType;
import org.hibernate.type.descriptor.jdbc.JdbcTypeIndicators;

/**
 * How Hibernate handles every {@link JsonNode} column: one registration for all of them (on {@code
 * VersionedEntity}), so that no column's handling depends on which entity Hibernate happens to bind first.
 * <ul>
 *     <li>Without it, the first {@code JsonNode} attribute Hibernate bound made the type of them all, with that
 *     attribute's mutability: either every column was copied by writing its tree out and parsing it again, after
 *     every update of its entity, or none was copied, and a tree changed in place would never be written.</li>
 *     <li>Here a copy is {@link JsonNode#deepCopy()}, a walk of the tree, and two trees are equal when their
 *     content is. The columns whose values are only ever replaced keep {@code @Mutability(Immutability.class)},
 *     so that whether they changed is their setter's business, not a comparison of trees at every flush.</li>
 * </ul>
 * Reading and writing the column is the JSON type's, through Hibernate's JSON format mapper, as before.
 */
public final class JsonTreeJavaType extends AbstractClassJavaType<JsonNode> {

    private static final ObjectMapper TREES = new ObjectMapper();

    public JsonTreeJavaType() {
        super(JsonNode.class, new TreeCopy());
    }

    /** A tree's copy: its nodes, not its text. */
    private static final class TreeCopy extends MutableMutabilityPlan<JsonNode> {
        @Override
        protected JsonNode deepCopyNotNull(JsonNode value) {
            return value.deepCopy();
        }
    }

    @Override
    public JdbcType getRecommendedJdbcType(JdbcTypeIndicators indicators) {
        return indicators.getJdbcType(SqlTypes.JSON);
    }

    @Override
    public boolean areEqual(JsonNode one, JsonNode another) {
        return one == null ? another == null : one.equals(another);
    }

    @Override
    public int extractHashCode(JsonNode value) {
        return value.hashCode();
    }

    @Override
    public String toString(JsonNode value) {
        return value.toString();
    }

    @Override
    public JsonNode fromString(CharSequence text) {
        return parse(text);
    }

    /** A stored JSON value's text as a tree, as the column reads it: no setting of the API's mapper applies. */
    public static JsonNode parse(CharSequence text) {
        try {
            return TREES.readTree(text.toString());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <X> X unwrap(JsonNode value, Class<X> type, WrapperOptions options) {
        if (value == null) {
            return null;
        }
        if (type.isInstance(value)) {
            return (X) value;
        }
        if (type == String.class) {
            return (X) toString(value);
        }
        throw unknownUnwrap(type);
    }

    @Override
    public <X> JsonNode wrap(X value, WrapperOptions options) {
        if (value == null) {
            return null;
        }
        if (value instanceof JsonNode tree) {
            return tree;
        }
        if (value instanceof CharSequence text) {
            return fromString(text);
        }
        throw unknownWrap(value.getClass());
    }

    /** A column's content never goes to a log: it may hold what a resource's outputs or a provider's settings hold. */
    @Override
    public String extractLoggableRepresentation(JsonNode value) {
        return value == null ? "null" : "(JSON)";
    }
}

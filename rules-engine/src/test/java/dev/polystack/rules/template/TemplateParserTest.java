package dev.polystack.rules.template;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

class TemplateParserTest {

    @ParameterizedTest(name = "{0} prints as {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "plain text                               | plain text",
                "${context.env_id}                        | ${context.env_id}",
                "${ context.env_id }                      | ${context.env_id}",
                "db-${context.env_id}-${context.res_id}  | db-${context.env_id}-${context.res_id}",
                "$${literal}                              | $${literal}",
                "cost: $5 and $$ and $                    | cost: $5 and $$ and $",
                "${resources.db.outputs.endpoints[0].host} | ${resources.db.outputs.endpoints[0].host}",
                "${resources.db.outputs[\"key.with.dots\"]} | ${resources.db.outputs[\"key.with.dots\"]}",
                "${resources.db.outputs['single']}       | ${resources.db.outputs.single}",
                "${resources.my-db.outputs.host_name}     | ${resources.my-db.outputs.host_name}",
                "${resources.db.outputs[\"a\\\"b\"]}        | ${resources.db.outputs[\"a\\\"b\"]}"
            })
    void parsesAndPrintsCanonically(String input, String printed) {
        assertThat(Template.parse(input).print()).isEqualTo(printed);
    }

    @Test
    void aSinglePlaceholderIsAWholeValue() {
        assertThat(Template.parse("${resources.db.outputs.port}").isWholeValue())
                .isTrue();
        assertThat(Template.parse("port ${resources.db.outputs.port}").isWholeValue())
                .isFalse();
        assertThat(Template.parse("${a.b}${c.d}").isWholeValue()).isFalse();
        assertThat(Template.parse("$${a.b}").hasPlaceholders()).isFalse();
    }

    @Test
    void pathsKeepFieldsAndIndexes() {
        Reference reference = Template.parse("${resources.db.outputs.endpoints[0][\"key.with.dots\"]}")
                .placeholders()
                .get(0)
                .reference();
        assertThat(reference.root()).isEqualTo("resources");
        assertThat(reference.path())
                .containsExactly(
                        new PathElement.Field("db"),
                        new PathElement.Field("outputs"),
                        new PathElement.Field("endpoints"),
                        new PathElement.Index(0),
                        new PathElement.Field("key.with.dots"));
    }

    @Test
    void placeholdersRememberWhereTheyStart() {
        assertThat(Template.parse("ab${x.y}cd${z.w}").placeholders())
                .extracting(Segment.Placeholder::position)
                .containsExactly(2, 10);
    }

    @ParameterizedTest(name = "{0} fails at {1}: {2}")
    @CsvSource(
            delimiter = '|',
            value = {
                "${                   | 2  | expected a reference",
                "${}                  | 2  | expected a reference",
                "${context.env_id     | 16 | unclosed placeholder",
                "x ${context.}        | 12 | expected a name after `.`",
                "${context env}       | 10 | unexpected `e`",
                "${a[}                | 4  | expected a number or a quoted name",
                "${a[1}               | 5  | expected `]`",
                "${a[\"x}             | 4  | unclosed quoted name",
                "${a[\"x\\n\"]}       | 7  | may be escaped",
                "${1abc}              | 2  | expected a reference",
                "${a[99999999999]}    | 4  | index too large"
            })
    void reportsTheErrorAndWhere(String input, int position, String reason) {
        assertThatThrownBy(() -> Template.parse(input))
                .isInstanceOf(TemplateException.class)
                .satisfies(e -> {
                    assertThat(((TemplateException) e).position()).isEqualTo(position);
                    assertThat(((TemplateException) e).reason()).contains(reason);
                });
    }

    /** Property: on any input the parser either succeeds or fails with its own exception at a position inside the input. */
    @Test
    void neverFailsWithAnythingButItsDocumentedError() {
        Random random = new Random(Long.getLong("seed", 20261129L));
        String alphabet = "${}[]\"'\\.ab_-09 $${x";
        for (int run = 0; run < 20_000; run++) {
            StringBuilder input = new StringBuilder();
            int length = random.nextInt(24);
            for (int i = 0; i < length; i++) {
                input.append(
                        random.nextInt(10) == 0
                                ? (char) random.nextInt(0x3000)
                                : alphabet.charAt(random.nextInt(alphabet.length())));
            }
            try {
                Template.parse(input.toString());
            } catch (TemplateException e) {
                assertThat(e.position())
                        .as("position of the error in %s", input)
                        .isBetween(0, input.length());
            } catch (RuntimeException e) {
                fail("input <" + input + "> threw " + e);
            }
        }
    }

    /** Property: printing a parsed template parses back to the same template. */
    @Test
    void printedTemplatesParseBackToTheSame() {
        Random random = new Random(Long.getLong("seed", 42L));
        int withPlaceholders = 0;
        for (int run = 0; run < 20_000; run++) {
            Template template = randomTemplate(random);
            Template reparsed = Template.parse(template.print());
            assertThat(reparsed.shape())
                    .as("round trip of %s", template.print())
                    .isEqualTo(template.shape());
            withPlaceholders += template.hasPlaceholders() ? 1 : 0;
        }
        assertThat(withPlaceholders)
                .as("generated templates that hold placeholders")
                .isGreaterThan(10_000);
    }

    private static Template randomTemplate(Random random) {
        StringBuilder text = new StringBuilder();
        int parts = random.nextInt(5);
        for (int i = 0; i < parts; i++) {
            if (random.nextBoolean()) {
                String[] literals = {"a", "$", "$$", "{", "}", "x y", "$${", "ü", "\"", "]"};
                text.append(literals[random.nextInt(literals.length)]);
            } else {
                text.append("${").append(randomReference(random)).append('}');
            }
        }
        try {
            return Template.parse(text.toString());
        } catch (TemplateException e) {
            // a random mix can be invalid ("$" + "{" + ...); those are covered by the other property
            return Template.parse("");
        }
    }

    private static String randomReference(Random random) {
        List<String> roots = List.of("context", "resources", "shared", "x_1");
        StringBuilder reference = new StringBuilder(roots.get(random.nextInt(roots.size())));
        int steps = random.nextInt(5);
        for (int i = 0; i < steps; i++) {
            switch (random.nextInt(4)) {
                case 0 -> reference.append(".name").append(random.nextInt(3));
                case 1 -> reference.append('[').append(random.nextInt(20)).append(']');
                case 2 -> reference.append("[\"k.").append(random.nextInt(9)).append("\\\"q\"]");
                default ->
                    reference.append("['with space ").append(random.nextInt(9)).append("']");
            }
        }
        return reference.toString();
    }
}

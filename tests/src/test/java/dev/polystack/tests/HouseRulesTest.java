package dev.polystack.tests;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The habits the build keeps beyond formatting and lint: test classes small enough to read, and imports
 * instead of fully qualified names in the code that ships.
 */
class HouseRulesTest {

    private static final Path REPOSITORY = PlatformProcess.repository();
    private static final int MAX_TEST_LINES = 800;
    /** A package-qualified class name (java.util.List, jakarta.persistence.Converter) outside imports and comments. */
    private static final Pattern QUALIFIED =
            Pattern.compile("(^|[^\\w.\"/])(java|javax|jakarta|org|io|com|dev)\\.[a-z0-9]+\\.[a-z0-9.]*[A-Z]\\w*");

    @Test
    void noTestClassIsOverEightHundredLines() throws IOException {
        List<String> over = new ArrayList<>();
        for (Path file : files(
                "glob:**/src/test/**/*.java",
                "glob:**/web-console/src/**/*.test.{ts,tsx}",
                "glob:**/web-console/e2e/**")) {
            long lines = lines(file).size();
            if (lines > MAX_TEST_LINES) {
                over.add(REPOSITORY.relativize(file) + ": " + lines + " lines");
            }
        }
        assertThat(over).as("test sources over %d lines", MAX_TEST_LINES).isEmpty();
    }

    @Test
    void shippedCodeImportsWhatItNamesInsteadOfQualifyingIt() throws IOException {
        List<String> qualified = new ArrayList<>();
        for (Path file : files("glob:**/src/main/java/**/*.java")) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i).strip();
                if (line.startsWith("import ")
                        || line.startsWith("package ")
                        || line.startsWith("*")
                        || line.startsWith("/*")
                        || line.startsWith("//")) {
                    continue;
                }
                String code = line.replaceAll("\"(\\\\.|[^\"\\\\])*\"", "\"\"");
                if (QUALIFIED.matcher(code).find()) {
                    qualified.add(REPOSITORY.relativize(file) + ":" + (i + 1) + ": " + line);
                }
            }
        }
        assertThat(qualified).as("fully qualified names in main code").isEmpty();
    }

    /**
     * A native query that names a basic type as its result class ({@code createNativeQuery(sql, UUID.class)}) gets a
     * result builder without equality from Hibernate: its plan is never found in the cache of query plans again, and
     * every execution adds one (BENCHMARKS.md, the thirty-ninth look). Such queries use {@code ScalarQueries.of}.
     */
    @Test
    void noNativeQueryNamesABasicTypeAsItsResultClass() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path file : files("glob:**/src/main/java/**/*.java")) {
            found.addAll(basicResultClasses(String.join("\n", lines(file))).stream()
                    .map(call -> REPOSITORY.relativize(file) + ": " + call)
                    .toList());
        }
        assertThat(found)
                .as("native queries with a basic type as their result class")
                .isEmpty();
    }

    /** A call of {@code createNativeQuery}, its arguments holding up to two levels of parentheses. */
    private static final Pattern NATIVE_QUERY =
            Pattern.compile("createNativeQuery\\(((?:[^()]|\\((?:[^()]|\\([^()]*\\))*\\))*)\\)");

    /** Text blocks, string literals and comments, whichever starts first. */
    private static final Pattern LITERALS_AND_COMMENTS =
            Pattern.compile("(?s)\"\"\".*?\"\"\"|\"(\\\\.|[^\"\\\\\\n])*\"|/\\*.*?\\*/|//[^\\n]*");

    /** The last argument of a call, when it is a basic type's class. */
    private static final Pattern BASIC_RESULT_CLASS =
            Pattern.compile(",\\s*(UUID|Boolean|String|Long|Integer|Short|Double"
                    + "|BigDecimal|Instant|OffsetDateTime|byte\\[\\])\\.class\\s*$");

    /** The calls in {@code source} that name a basic type as the query's result class. */
    static List<String> basicResultClasses(String source) {
        // string literals and text blocks hold SQL, whose parentheses are not the call's; comments hold no calls
        String code = LITERALS_AND_COMMENTS
                .matcher(source)
                .replaceAll(token -> token.group().startsWith("/") ? " " : "\"\"");
        List<String> calls = new ArrayList<>();
        var matcher = NATIVE_QUERY.matcher(code);
        while (matcher.find()) {
            if (BASIC_RESULT_CLASS.matcher(matcher.group(1)).find()) {
                calls.add(matcher.group().replaceAll("\\s+", " "));
            }
        }
        return calls;
    }

    @Test
    void theRulesSeeWhatTheyShouldSee() throws IOException {
        // the globs above must find the sources, or the rules pass on nothing
        assertThat(files("glob:**/src/test/**/*.java")).hasSizeGreaterThan(100);
        assertThat(files("glob:**/web-console/src/**/*.test.{ts,tsx}")).hasSizeGreaterThan(10);
        assertThat(files("glob:**/src/main/java/**/*.java")).hasSizeGreaterThan(300);
        assertThat(QUALIFIED
                        .matcher("    private static final java.util.logging.Logger LOG;")
                        .find())
                .isTrue();
        assertThat(QUALIFIED.matcher("    @jakarta.persistence.Converter").find())
                .isTrue();
        assertThat(QUALIFIED.matcher("    private static final Logger LOG;").find())
                .isFalse();
        assertThat(basicResultClasses("em.createNativeQuery(\"select id from job where (a) = (b)\",\n UUID.class)"))
                .hasSize(1);
        assertThat(basicResultClasses("em.createNativeQuery(\"\"\"\n select exists (select 1)\"\"\", Boolean.class)"))
                .hasSize(1);
        assertThat(basicResultClasses(
                        "/** {@code createNativeQuery(sql, UUID.class)} */ // createNativeQuery(s, UUID.class)"))
                .isEmpty();
        assertThat(basicResultClasses("em.createNativeQuery(\"a // b /* c\", UUID.class)"))
                .hasSize(1);
        assertThat(basicResultClasses("em.createNativeQuery(sql(\"x\", y), Deployment.class)"))
                .isEmpty();
        assertThat(basicResultClasses("em.createNativeQuery(\"select id from job\").addScalar(\"id\", UUID.class)"))
                .isEmpty();
    }

    /**
     * A migration whose source was deleted stays in platform-api's build output until a build with {@code clean}: the
     * jar packages it, and it is applied to the database of whoever runs that jar (where the next clean build's jar
     * then fails Flyway's validation). Benchmarks run on such a jar measured a schema this repository does not have.
     */
    @Test
    void theBuildPackagesNoMigrationWithoutItsSource() throws IOException {
        Path sources = REPOSITORY.resolve("platform-api/src/main/resources/db/migration");
        Path built = REPOSITORY.resolve("platform-api/target/classes/db/migration");
        assertThat(sources).isDirectory();
        if (!Files.isDirectory(built)) {
            // not built here: nothing is packaged
            return;
        }
        List<String> stale;
        try (Stream<Path> migrations = Files.list(built)) {
            stale = migrations
                    .map(migration -> migration.getFileName().toString())
                    .filter(name -> !Files.exists(sources.resolve(name)))
                    .sorted()
                    .toList();
        }
        assertThat(stale)
                .as("migrations in %s without a source (build with `clean`)", REPOSITORY.relativize(built))
                .isEmpty();
    }

    /**
     * The environment-deletion benchmark (BENCHMARKS.md) times the statements that delete an environment's records, as
     * a psql script: it must run the statements {@code EnvironmentRecords} runs, in their order.
     */
    @Test
    void theEnvironmentDeletionBenchmarkRunsTheEnginesStatements() throws IOException {
        Pattern statement = Pattern.compile("\"(delete from [^\"]+)\"");
        List<String> engine = statement
                .matcher(Files.readString(REPOSITORY.resolve(
                        "platform-api/src/main/java/dev/polystack/platform/deployment/model/EnvironmentRecords.java")))
                .results()
                .map(match -> match.group(1).replace("?1", ":victim") + ";")
                .toList();
        List<String> script = Files.readAllLines(
                        REPOSITORY.resolve("tests/src/test/resources/benchmarks/environment-deletion.sql"))
                .stream()
                .filter(line -> line.startsWith("delete from "))
                .toList();
        assertThat(engine).as("the statements of EnvironmentRecords").isNotEmpty();
        assertThat(script).as("the statements the benchmark script times").isEqualTo(engine);
    }

    /** The repository's files matching any of the globs; build output, node modules and .git are not entered. */
    private static List<Path> files(String... globs) throws IOException {
        List<PathMatcher> matchers = Stream.of(globs)
                .map(glob -> REPOSITORY.getFileSystem().getPathMatcher(glob))
                .toList();
        List<Path> found = new ArrayList<>();
        Files.walkFileTree(REPOSITORY, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
                return Set.of("node_modules", "target", ".git").contains(name)
                        ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                if (attributes.isRegularFile() && matchers.stream().anyMatch(m -> m.matches(file))) {
                    found.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return found;
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

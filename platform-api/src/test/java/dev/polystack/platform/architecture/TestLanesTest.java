package dev.polystack.platform.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fast unit lane ({@code ./mvnw test -Punit}) runs the control plane's tests listed in
 * {@code src/test/unit-lane.txt}: a list of files, because a test class that starts Quarkus builds the
 * application as soon as JUnit loads it, even when a tag would exclude it afterwards. The list must name
 * every test that does not start Quarkus, and none that does.
 */
class TestLanesTest {

    @Test
    void theUnitLaneListsExactlyTheTestsThatDoNotStartQuarkus() throws IOException {
        List<String> expected = new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.ONLY_INCLUDE_TESTS)
                        .importPackages("dev.polystack.platform")
                        .stream()
                        .filter(JavaClass::isTopLevelClass)
                        .filter(type -> type.getSimpleName().endsWith("Test"))
                        .filter(type -> !type.isAnnotatedWith(QuarkusTest.class))
                        .map(type -> type.getName().replace('.', '/') + ".java")
                        .sorted()
                        .toList();
        List<String> listed = Files.readAllLines(Path.of("src/test/unit-lane.txt")).stream()
                .map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .sorted()
                .toList();
        assertThat(listed).as("src/test/unit-lane.txt").containsExactlyElementsOf(expected);
    }
}

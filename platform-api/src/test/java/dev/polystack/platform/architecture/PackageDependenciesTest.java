package dev.polystack.platform.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * How the deployment feature's packages may depend on each other: the records of deployments at the
 * bottom, logs and scheduling over them, the runner protocol and the user-facing deployments API on
 * top, and nothing that points back down-up. Read from the compiled classes, without Quarkus.
 */
class PackageDependenciesTest {

    private static final String DEPLOYMENT = "dev.polystack.platform.deployment";

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.polystack.platform");
    }

    @Test
    void theDeploymentPackagesAreLayeredWithoutCycles() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("deployments")
                .definedBy(DEPLOYMENT)
                .layer("jobs")
                .definedBy(DEPLOYMENT + ".jobs..")
                .layer("scheduling")
                .definedBy(DEPLOYMENT + ".scheduling..")
                .layer("logs")
                .definedBy(DEPLOYMENT + ".logs..")
                .layer("model")
                .definedBy(DEPLOYMENT + ".model..")
                .whereLayer("deployments")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("jobs")
                .mayNotBeAccessedByAnyLayer()
                .whereLayer("scheduling")
                .mayOnlyBeAccessedByLayers("deployments", "jobs")
                .whereLayer("logs")
                .mayOnlyBeAccessedByLayers("deployments", "jobs", "scheduling")
                .whereLayer("model")
                .mayOnlyBeAccessedByLayers("deployments", "jobs", "scheduling", "logs")
                .check(classes);
    }

    @Test
    void theSubpackagesOfDeploymentHaveNoCycles() {
        slices().matching(DEPLOYMENT + ".(*)..").should().beFreeOfCycles().check(classes);
    }

    @Test
    void theStateBackendNeedsNothingOfDeployments() {
        noClasses()
                .that()
                .resideInAPackage("dev.polystack.platform.state..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(DEPLOYMENT + "..")
                .check(classes);
    }

    @Test
    void otherFeaturesUseOnlyTheDeploymentsApiNotTheEngineOrItsRecords() {
        noClasses()
                .that()
                .resideOutsideOfPackage(DEPLOYMENT + "..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        DEPLOYMENT + ".model..",
                        DEPLOYMENT + ".scheduling..",
                        DEPLOYMENT + ".jobs..",
                        DEPLOYMENT + ".logs..")
                .check(classes);
    }
}

package dev.polystack.platform.bootstrap;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When an idle control plane collects to return memory, and the heap free ratios it sets on the running JVM
 * unless something else chose them (the command line, or in this test JVM a control plane that another test
 * class started earlier).
 */
class MemoryReturnTest {

    private static final long MIB = 1024 * 1024;

    @Test
    void anIdleProcessWithAGrownHeapCollectsABusyOneOrASmallHeapDoesNot() {
        assertThat(MemoryReturn.shouldCollect(12, 12, 500 * MIB, 0))
                .as("idle, 500 MiB committed, never returned")
                .isTrue();
        assertThat(MemoryReturn.shouldCollect(12, 15, 500 * MIB, 0))
                .as("collections ran meanwhile: busy")
                .isFalse();
        assertThat(MemoryReturn.shouldCollect(12, 12, 60 * MIB, 0))
                .as("idle, 60 MiB committed: small already")
                .isFalse();
        assertThat(MemoryReturn.shouldCollect(-1, 12, 500 * MIB, 0))
                .as("first look: nothing to compare with")
                .isFalse();
        // a large live set: returned once (the heap is 350 MiB since), not again until the heap grows
        assertThat(MemoryReturn.shouldCollect(12, 12, 350 * MIB, 350 * MIB))
                .as("not grown since the last return")
                .isFalse();
        assertThat(MemoryReturn.shouldCollect(12, 12, 370 * MIB, 350 * MIB))
                .as("grown by 20 MiB: not worth a collection")
                .isFalse();
        assertThat(MemoryReturn.shouldCollect(12, 12, 450 * MIB, 350 * MIB))
                .as("grown since")
                .isTrue();
    }

    @Test
    void theHeapFreeRatiosAreTightOnlyForAnIdleCollectionAndOnlyWhenTheCommandLineLeftThem() {
        HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        boolean free = vm.getVMOption("MinHeapFreeRatio").getOrigin() == VMOption.Origin.DEFAULT
                && vm.getVMOption("MaxHeapFreeRatio").getOrigin() == VMOption.Origin.DEFAULT;
        String minBefore = vm.getVMOption("MinHeapFreeRatio").getValue();
        String maxBefore = vm.getVMOption("MaxHeapFreeRatio").getValue();

        Optional<MemoryReturn.Ratios> own = MemoryReturn.ownRatios(vm);
        if (!free) {
            assertThat(own).as("chosen on the command line: never touched").isEmpty();
            return;
        }
        assertThat(own).contains(new MemoryReturn.Ratios(minBefore, maxBefore));
        assertThat(MemoryReturn.tighten(vm)).containsExactly("MinHeapFreeRatio=10", "MaxHeapFreeRatio=30");
        assertThat(vm.getVMOption("MinHeapFreeRatio").getValue()).isEqualTo("10");
        assertThat(vm.getVMOption("MaxHeapFreeRatio").getValue()).isEqualTo("30");
        MemoryReturn.restore(vm, own.get());
        assertThat(vm.getVMOption("MinHeapFreeRatio").getValue())
                .as("the JVM's own again")
                .isEqualTo(minBefore);
        assertThat(vm.getVMOption("MaxHeapFreeRatio").getValue()).isEqualTo(maxBefore);
        // set through management now, no longer the defaults: a control plane decides once, at start
        assertThat(MemoryReturn.ownRatios(vm)).isEmpty();
    }

    @Test
    void theNativeHeapIsTrimmedOncePerIdlePeriod() {
        // arguments: the count at the last look, at this look before its own collection, after it, at the last trim
        assertThat(MemoryReturn.shouldTrim(-1, 3, 3, -1)).as("first look").isFalse();
        assertThat(MemoryReturn.shouldTrim(3, 3, 3, -1))
                .as("idle, never trimmed")
                .isTrue();
        assertThat(MemoryReturn.shouldTrim(3, 3, 3, 3))
                .as("idle, trimmed since the last work")
                .isFalse();
        assertThat(MemoryReturn.shouldTrim(3, 3, 4, 3))
                .as("idle; the one collection since the trim is the look's own return of the heap")
                .isTrue();
        assertThat(MemoryReturn.shouldTrim(3, 4, 4, 2))
                .as("one collection from work since the last look: busy, however light")
                .isFalse();
        assertThat(MemoryReturn.shouldTrim(9, 9, 9, 3))
                .as("idle again after work")
                .isTrue();
    }

    @Test
    void thisJvmTrimsItsNativeHeapWhenItHasTheCommand() throws Exception {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        boolean hasCommand = Arrays.stream(
                        server.getMBeanInfo(new ObjectName("com.sun.management:type=DiagnosticCommand"))
                                .getOperations())
                .anyMatch(operation -> operation.getName().equals("systemTrimNativeHeap"));

        Optional<String> report = MemoryReturn.trimNativeHeap();

        if (hasCommand) {
            // the JVM's own report of what it gave back ("Trim native heap: RSS+Swap: 260M->232M ...")
            assertThat(report).hasValueSatisfying(text -> assertThat(text).isNotBlank());
        } else {
            assertThat(report).as("nothing to ask for: nothing done").isEmpty();
        }
    }
}

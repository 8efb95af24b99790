package org.mpcache.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class TestAdmissionControl {

  @Test
  void distanceCountsTheAccessesBetweenTheLastTwo() {
    AdmissionControl admission = new AdmissionControl();
    DataSet a = new DataSet(1, 1);
    DataSet b = new DataSet(2, 1);
    DataSet c = new DataSet(3, 1);
    admission.accessed(a);
    admission.accessed(b);
    admission.accessed(c);
    assertEquals(2, admission.distance(c), 1e-9, "first access: all accesses before it");
    admission.accessed(a);
    assertEquals(2, admission.distance(a), 1e-9, "b and c in between");
    admission.accessed(a);
    assertEquals(AdmissionControl.BACK_TO_BACK_DISTANCE, admission.distance(a), 1e-9);
    assertFalse(admission.recordedBefore(b));
    assertTrue(admission.recordedBefore(a));
  }

  @Test
  void admitsExactlyWhenWorthExceedsTheVictimsSum() {
    AdmissionControl admission = new AdmissionControl();
    DataSet filler = new DataSet(9, 1);
    DataSet four = new DataSet(1, 4);
    DataSet five = new DataSet(2, 5);
    DataSet candidate = new DataSet(3, 2);
    admission.accessed(four);
    admission.accessed(four); // 1/(4·0.01) = 25
    admission.accessed(five);
    admission.accessed(five); // 1/(5·0.01) = 20
    admission.accessed(filler);
    admission.accessed(candidate);
    admission.accessed(candidate); // 1/(2·0.01) = 50
    assertEquals(50, admission.worth(candidate), 1e-9);
    assertTrue(admission.admits(candidate, List.of(four, five)), "50 > 45");
    assertFalse(admission.admits(candidate, List.of(four, four)), "50 > 50 does not hold");
    assertFalse(admission.admits(candidate, List.of(four, five, five)), "50 > 65 does not hold");
  }
}

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
    assertTrue(admission.worthMore(candidate, List.of(four, five)), "50 > 45");
    assertFalse(admission.worthMore(candidate, List.of(four, four)), "50 > 50 does not hold");
    assertFalse(admission.worthMore(candidate, List.of(four, five, five)),
        "50 > 65 does not hold");
  }

  /**
   * The paper admits data sets: the first miss of an access decides for the access; per block,
   * each miss decides against its own victims. A first-seen data set is only recorded.
   */
  @Test
  void decidesOncePerAccessUnlessAskedPerBlock() {
    for (boolean perBlock : new boolean[] {false, true}) {
      AdmissionControl admission = new AdmissionControl(AdmissionControl.BACK_TO_BACK_DISTANCE,
          perBlock);
      DataSet victim = new DataSet(1, 4);
      DataSet candidate = new DataSet(2, 2);
      admission.accessed(victim);
      admission.accessed(victim); // worth 25
      assertFalse(admission.admits(candidate, List.of(victim)), "first seen: recorded only");
      admission.accessed(candidate);
      admission.accessed(candidate); // worth 50
      assertTrue(admission.admits(candidate, List.of(victim)));
      assertEquals(!perBlock, admission.admits(candidate, List.of(victim, victim, victim)),
          "75 of victims: refused only when each miss decides");
      admission.accessed(candidate); // a new access decides anew
      assertFalse(admission.admits(candidate, List.of(victim, victim, victim)));
    }
    assertEquals("admission", new AdmissionControl().name());
  }
}

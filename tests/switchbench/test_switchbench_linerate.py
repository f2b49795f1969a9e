"""RFC 2544 arithmetic and the CPU frequency (switchbench/linerate.py)."""

import pytest

from p4odp.switchbench.linerate import (cpu_frequency, cycles_per_packet, gbps, line_rate_pps, line_rate_share,
                                       summarize)


def test_64_byte_frames_at_14_88_mpps_fill_10_gbe():
    assert line_rate_pps(64, 10) == pytest.approx(14_880_952, abs=1)
    assert line_rate_share(14.88, 64, 10) == pytest.approx(1.0, abs=1e-4)
    assert line_rate_share(14.88, 64, 100) == pytest.approx(0.1, abs=1e-5)


@pytest.mark.parametrize("size, mpps_at_10g", [(128, 8.4459), (256, 4.5290), (512, 2.3496), (1024, 1.1973),
                                               (1280, 0.9615), (1518, 0.8127)])
def test_line_rates_of_the_rfc_2544_sizes(size, mpps_at_10g):
    assert line_rate_pps(size, 10) / 1e6 == pytest.approx(mpps_at_10g, abs=1e-4)
    assert line_rate_pps(size, 25) == pytest.approx(2.5 * line_rate_pps(size, 10))


def test_bits_and_cycles():
    assert gbps(14.88, 64) == pytest.approx(7.618, abs=1e-3)  # frames without preamble and gap
    assert cycles_per_packet(10, 2.5e9, 1) == 250
    assert cycles_per_packet(10, 2.5e9, 2) == 500
    assert cycles_per_packet(0, 2.5e9, 1) is None


def test_summary_is_the_median_of_the_rounds():
    summary = summarize(64, [10.0, 12.0, 11.0, 30.0, 9.0], 2e9, 1, [5.0, 6.0, 5.5, 15.0, 4.5])
    assert summary.mpps == 11.0 and summary.rx_mpps == 5.5
    assert summary.spread == pytest.approx(10.5)
    assert summary.cycles_per_packet == pytest.approx(2e9 / 11e6)
    assert summary.line_rate[10] == pytest.approx(11 / 14.880952, rel=1e-6)
    assert set(summary.line_rate) == {10, 25, 40, 100}


def test_cpu_frequency_sources(tmp_path):
    nothing = tmp_path / "no-cpufreq"
    named = "model name\t: Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz\ncpu MHz\t\t: 1200.000\n"
    assert cpu_frequency(named, nothing).hz == 2.4e9
    plain = "model name\t: AMD EPYC\ncpu MHz\t\t: 2445.404\n"
    freq = cpu_frequency(plain, nothing)
    assert freq.hz == pytest.approx(2445.404e6) and "cpu MHz" in freq.source
    (tmp_path / "cpufreq").mkdir()
    (tmp_path / "cpufreq" / "base_frequency").write_text("2100000\n")
    assert cpu_frequency(named, tmp_path / "cpufreq").hz == 2.1e9
    assert cpu_frequency("processor\t: 0\n", nothing) is None

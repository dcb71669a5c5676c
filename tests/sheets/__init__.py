"""Tests of the Google Sheets worker (sheets/), against the loopback Sheets fake."""

"""The C runtime of p4odp switches, shipped as package data for the backend to compile."""

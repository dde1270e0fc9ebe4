"""Filled sheets on paper and PDF, drawn by the same painters as the window."""

from .render import PAGE_SIZES, PrintJob, export_pdf, render_job

__all__ = ["PAGE_SIZES", "PrintJob", "export_pdf", "render_job"]

"""placeholder until written"""
import streamlit as st
def show() -> None:
    st.title("Practice")
